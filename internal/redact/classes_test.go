package redact

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestClasses: every writing of every class of issue 37 is found, for
// random secrets of the shapes keys have and for the test's Stripe key and
// non-ASCII password, and nothing of the secret is left once redacted
// (as text, and inside a summary redacted as JSON). The counts per class
// are logged (go test -v -run TestClasses).
func TestClasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 1))
	secrets := []string{stripe, dbpass}
	for range 14 {
		secrets = append(secrets, randomSecret(rng))
	}
	for _, cl := range writingClasses {
		caught, total := 0, 0
		for _, w := range cl.writings {
			t.Run(cl.name+"/"+w.name, func(t *testing.T) {
				for _, secret := range secrets {
					if w.ascii && secret == dbpass || w.outOfReach != nil && w.outOfReach(secret) != "" {
						continue
					}
					total++
					r := New([]Secret{{ID: "s", Value: secret}})
					text := w.write(rng, secret)
					found, left := foundAndGone(r, text, w.doc)
					switch {
					case !found:
						t.Errorf("secret %q: not found in %q", secret, short(text))
					case left != "":
						t.Errorf("secret %q: redaction left a leak: %q", secret, short(left))
					default:
						caught++
					}
				}
			})
		}
		t.Logf("%s: %d of %d writings caught", cl.name, caught, total)
	}
	// bzip2: Go has no writer; the fixtures were written by Python's bz2.
	for secret, b64 := range bzip2Fixtures {
		r := New([]Secret{{ID: "s", Value: secret}})
		if found, left := foundAndGone(r, "blob "+b64+" end", false); !found || left != "" {
			t.Errorf("bzip2+base64 of %q: found %v, left %q", secret, found, left)
		}
	}
}

// A decompression bomb inside a summary costs at most maxInflate of
// output per stream and the search's budget: it is searched (or hidden
// whole) without reading past the cap.
func TestInflateIsCapped(t *testing.T) {
	big := make([]byte, 64<<20)
	z := zlibBytes(string(big))
	out, name, ok := inflate(z, false)
	if !ok || name != "zlib" || len(out) != maxInflate {
		t.Fatalf("inflate: %d bytes, %q, %v; want %d of zlib", len(out), name, ok, maxInflate)
	}
	r := New([]Secret{{ID: "s", Value: stripe}})
	text := fmt.Sprintf("bomb %s end", base64Std(z))
	_ = r.Contains(text) // must return, within the budget
}

func base64Std(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
