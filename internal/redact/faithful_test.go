package redact

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// faithfulTexts are the repository's faithful summaries and sessions:
// the gold summaries, the paraphrase sets, the built-in scenarios and the
// imported sessions' fixtures, every file read as one text.
func faithfulTexts(t testing.TB) map[string]string {
	texts := map[string]string{}
	for _, dir := range []string{"../../testdata/gold", "../../testdata/paraphrases", "../../scenarios/builtin", "../../testdata/import"} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err == nil && len(b) < 1<<20 {
				texts[path] = string(b)
			}
			return nil
		})
	}
	if len(texts) < 60 {
		t.Fatalf("found %d faithful texts", len(texts))
	}
	return texts
}

// The finder reads every text by its skeleton, in pieces, spelled out and
// under its decoders: none of that may turn faithful text into a leak. 300
// random secrets of the shapes keys have, searched in every faithful text
// of the repository with no public text at all, find nothing.
func TestFaithfulTextsHoldNoRandomSecret(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	texts := faithfulTexts(t)
	rng := rand.New(rand.NewPCG(37, 2))
	var secrets []Secret
	for i := range 100 {
		secrets = append(secrets, Secret{ID: fmt.Sprint("s", i), Value: randomSecret(rng)})
	}
	r := New(secrets)
	for name, text := range texts {
		if leaks := r.Find(text); len(leaks) > 0 {
			l := leaks[0]
			t.Errorf("%s: %d leaks, first of %s: %q as %q", name, len(leaks), l.ID, text[l.Start:l.End], l.Encoding)
		}
	}
}

// The faithful counterparts of each class: a summary may name the secret's
// variable, give its first characters as an id, give a digest of it,
// quote a masked form the session printed, hold the secret's characters
// in order scattered through prose or code, or say it was redacted.
func TestFaithfulMentionsPass(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 3))
	secrets := []string{stripe}
	for range 40 {
		secrets = append(secrets, randomSecret(rng))
	}
	for _, secret := range secrets {
		rs := []rune(secret)
		masked := string(rs[:4]) + strings.Repeat("*", len(rs)-8) + string(rs[len(rs)-4:])
		r := New([]Secret{{ID: "STRIPE_KEY", Value: secret}}, "401 Unauthorized: Invalid API Key provided: "+masked)
		sum := sha256.Sum256([]byte(secret))
		s1 := sha1.Sum([]byte(secret))
		m5 := md5.Sum([]byte(secret))
		texts := map[string]string{
			"the variable":            "The key lives in STRIPE_KEY (export STRIPE_KEY=…); never print $STRIPE_KEY.",
			"the first 4 as an id":    "The revoked key " + string(rs[:4]) + "… was rotated; key id " + string(rs[:4]) + ".",
			"the first 4, last 4":     "key " + string(rs[:4]) + "…" + string(rs[len(rs)-4:]) + " revoked",
			"sha256 digest":           "sha256 of the key: " + hex.EncodeToString(sum[:]),
			"sha256 digest, base64":   "fingerprint " + base64.StdEncoding.EncodeToString(sum[:]),
			"sha1 and md5 digests":    "sha1 " + hex.EncodeToString(s1[:]) + " md5 " + hex.EncodeToString(m5[:]),
			"the masked form printed": "Stripe answered 401 Invalid API Key provided: " + masked,
			"redacted":                "the key [redacted] was revoked; see [REDACTED] and <secret>",
			"letters in order, prose": scattered(rng, secret),
			"letters in order, code":  "for (int i = 0; i < n; i++) { if (keys[i] == NULL) continue; q.push(k); }",
		}
		for name, text := range texts {
			if leaks := r.Find(text); len(leaks) > 0 {
				l := leaks[0]
				t.Errorf("secret %q, %s: leak %q as %q (%d chars, pieces %v) in %q", secret, name, text[l.Start:l.End], l.Encoding, l.Chars, l.Pieces, text)
			}
		}
	}
}

// scattered writes prose in which every letter and digit of secret occurs
// in order, each inside an ordinary word.
func scattered(rng *rand.Rand, secret string) string {
	words := []string{"the", "rotation", "of", "keys", "happened", "after", "review", "when", "billing", "worker", "failed", "again", "and", "we", "paused"}
	var b strings.Builder
	for _, r := range secret {
		w := words[rng.IntN(len(words))]
		fmt.Fprintf(&b, "%s %c%s ", w, r, words[rng.IntN(len(words))])
	}
	return b.String()
}
