package redact

import "math/rand/v2"

// For the fuzz targets of redact_test (fuzz_test.go), which run the secret
// check and the writers: packages that import this one.

// RandomSecret is a secret of one of the shapes keys have.
var RandomSecret = randomSecret

// ClassWritings is how many writings class has (writingClasses).
func ClassWritings(class string) int {
	for _, c := range writingClasses {
		if c.name == class {
			return len(c.writings)
		}
	}
	return 0
}

// WriteClass writes secret in the i-th writing of class (i modulo their
// number): the text, the writing's name, whether the text is a whole
// summary document, and why the finder cannot see it ("" when it can).
func WriteClass(class string, i int, rng *rand.Rand, secret string) (text, name string, doc bool, outOfReach string) {
	for _, c := range writingClasses {
		if c.name != class {
			continue
		}
		w := c.writings[i%len(c.writings)]
		if w.outOfReach != nil {
			outOfReach = w.outOfReach(secret)
		}
		return w.write(rng, secret), w.name, w.doc, outOfReach
	}
	panic("no class " + class)
}
