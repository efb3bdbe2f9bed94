package judges

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/textmatch"
)

// ParseVerdict reads a judge's reply (one JSON object: verdict, quote,
// reason) to req and checks it: the verdict must be one of
// Verdicts(req.Kind) (any case), quote and reason strings when present, and
// a verdict that relies on the judged text (kept, contradicted, correct,
// incorrect) must quote words that occur in it (Quoted). Any problem is an
// error saying what was wrong, never a verdict.
func ParseVerdict(obj []byte, req *Request) (*Verdict, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(obj, &raw); err != nil || raw == nil {
		return nil, fmt.Errorf("the reply is not a JSON object: %s", clip.String(strings.TrimSpace(string(obj)), 120))
	}
	str := func(name string) (string, error) {
		v, ok := raw[name]
		if !ok || string(v) == "null" {
			return "", nil
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return "", fmt.Errorf("%q is not a string (got %s)", name, clip.String(string(v), 60))
		}
		return s, nil
	}
	var v Verdict
	var errs []error
	verdict, err := str("verdict")
	errs = append(errs, err)
	v.Quote, err = str("quote")
	errs = append(errs, err)
	v.Reason, err = str("reason")
	errs = append(errs, err)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	valid := Verdicts(req.Kind)
	v.Verdict = strings.ToLower(strings.TrimSpace(verdict))
	switch {
	case v.Verdict == "":
		return nil, fmt.Errorf(`the reply has no "verdict" (want one of %s)`, strings.Join(valid, ", "))
	case !slices.Contains(valid, v.Verdict):
		return nil, fmt.Errorf("verdict %q is not one of %s", clip.String(verdict, 60), strings.Join(valid, ", "))
	}
	if needsQuote(v.Verdict) {
		if strings.TrimSpace(v.Quote) == "" {
			return nil, fmt.Errorf("verdict %s comes with no quote of the %s it relies on", v.Verdict, judgedName(req))
		}
		if !Quoted(v.Quote, judged(req)) {
			return nil, fmt.Errorf("verdict %s relies on words that are not in the %s: %q", v.Verdict, judgedName(req), clip.String(v.Quote, 120))
		}
	}
	return &v, nil
}

// needsQuote reports whether a verdict rests on words of the judged text.
func needsQuote(verdict string) bool {
	return verdict != Missing && verdict != Unsure
}

// judged is the text a request's verdict is about: the summary, or the
// answer.
func judged(req *Request) string {
	if req.Kind == KindAnswer {
		if req.Answer == nil {
			return ""
		}
		return *req.Answer
	}
	return string(req.Summary)
}

func judgedName(req *Request) string {
	if req.Kind == KindAnswer {
		return "answer"
	}
	return "summary"
}

// Quoted reports whether quote occurs in text, comparing case-, accent-
// and whitespace-folded forms with typographic quotes and dashes made
// plain, surrounding quotation marks and punctuation ignored. An ellipsis
// ("..." or "…") in the quote stands for omitted words: each part must
// occur, in order. When text is a JSON document (a summary; a summary
// that is not JSON reaches the judge as a JSON string), only its
// values are searched: its member names are the format's words, not the
// summary's, so a quote of a key alone ("constraints", "covers_through")
// never counts, and a quote written as a JSON fragment ("text": "…") counts
// by its value.
func Quoted(quote, text string) bool {
	hay := quoteForm(text)
	if t := strings.TrimSpace(text); t != "" && (t[0] == '{' || t[0] == '[' || t[0] == '"') {
		if vals, ok := jsonValues(t); ok {
			hay = quoteForm(vals)
			if t[0] != '"' { // a document with member names
				quote = jsonKey.ReplaceAllString(typography.Replace(quote), " ")
			}
		}
	}
	var parts []string
	for _, p := range splitEllipsis(quoteForm(quote)) {
		if p = strings.Trim(p, quoteTrim); p != "" {
			parts = append(parts, p)
		}
	}
	return len(parts) > 0 && inOrder(parts, hay)
}

// jsonKey is a JSON member name and its colon, as a quote of a JSON
// fragment writes it.
var jsonKey = regexp.MustCompile(`"(?:[^"\\]|\\.)*"\s*:`)

func inOrder(parts []string, h string) bool {
	for _, p := range parts {
		i := strings.Index(h, p)
		if i < 0 {
			return false
		}
		h = h[i+len(p):]
	}
	return true
}

// jsonValues is every value of a JSON document (strings, numbers and
// booleans; never member names), one per line, in document order (so that
// an ellipsis quote over two values reads them in a stable order); false
// when t is not one JSON document.
func jsonValues(t string) (string, bool) {
	if !json.Valid([]byte(t)) {
		return "", false
	}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.UseNumber()
	type frame struct{ obj, wantKey bool }
	var stack []frame
	var b strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return b.String(), true
		}
		if err != nil {
			return "", false
		}
		var top *frame
		if n := len(stack); n > 0 {
			top = &stack[n-1]
		}
		switch x := tok.(type) {
		case json.Delim:
			switch x {
			case '{', '[':
				if top != nil && top.obj {
					top.wantKey = true
				}
				stack = append(stack, frame{obj: x == '{', wantKey: x == '{'})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		case nil:
		default:
			if top != nil && top.obj && top.wantKey {
				top.wantKey = false // a member name
				continue
			}
			fmt.Fprintf(&b, "%v\n", x)
		}
		if top != nil && top.obj {
			top.wantKey = true
		}
	}
}

const quoteTrim = " \t\"'`.,;:!?()[]{}«»"

var typography = strings.NewReplacer("“", `"`, "”", `"`, "„", `"`, "‘", "'", "’", "'", "‚", "'", "–", "-", "—", "-", "\u00a0", " ")

// splitEllipsis cuts s at every "..." or "…".
func splitEllipsis(s string) []string {
	return strings.Split(strings.ReplaceAll(s, "…", "..."), "...")
}

func quoteForm(s string) string {
	return strings.ToLower(textmatch.Fold(typography.Replace(s)))
}
