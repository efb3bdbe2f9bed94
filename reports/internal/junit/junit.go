// Package junit is the JUnit XML document the reports write: the element
// types only, filled by reports.BuildJUnit.
package junit

import "encoding/xml"

// The types, in the shape GitHub test reporters, GitLab and Jenkins
// read: a <testsuites> root with totals, one <testsuite> per scenario file.

// Suites is the root element.
type Suites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Name     string   `xml:"name,attr"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Skipped  int      `xml:"skipped,attr"`
	Time     string   `xml:"time,attr"`
	Suites   []Suite  `xml:"testsuite"`
}

// Suite is one scenario file.
type Suite struct {
	Name       string     `xml:"name,attr"`
	Tests      int        `xml:"tests,attr"`
	Failures   int        `xml:"failures,attr"`
	Errors     int        `xml:"errors,attr"`
	Skipped    int        `xml:"skipped,attr"`
	Time       string     `xml:"time,attr"`
	Timestamp  string     `xml:"timestamp,attr,omitempty"`
	Properties []Property `xml:"properties>property"`
	Cases      []Case     `xml:"testcase"`
}

// Property is one provenance item.
type Property struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// Case is one scenario × summarizer × check (× invariant or probe).
type Case struct {
	Classname string   `xml:"classname,attr"`
	Name      string   `xml:"name,attr"`
	Time      string   `xml:"time,attr"`
	File      string   `xml:"file,attr,omitempty"`
	Line      int      `xml:"line,attr,omitempty"`
	Failure   *Problem `xml:"failure"`
	Error     *Problem `xml:"error"`
	Skipped   *Skipped `xml:"skipped"`
}

// Problem is a <failure> or an <error>.
type Problem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

// Skipped is <skipped/>.
type Skipped struct {
	Message string `xml:"message,attr,omitempty"`
}
