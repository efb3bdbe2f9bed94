package redact

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"encoding/ascii85"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"strings"
	"unicode/utf8"
)

// A writing is one way a summarizer may write a secret down so that a
// reader recovers it: the classes of issue 37 (separators, partial
// recovery, encodings outside the first family, spelled-out forms,
// homoglyphs), each with several writings. TestClasses requires every
// writing of every class found and gone once redacted, for random secrets;
// the fuzz targets (fuzz_test.go) do the same for a random writing of a
// class inside a random summary field.
type writing struct {
	name string
	// write spells secret; rng picks what a writing leaves to chance
	// (filler, separators, where chunks fall).
	write func(rng *rand.Rand, secret string) string
	// doc is set when write returns a whole summary document (chunks
	// across fields), not a text.
	doc bool
	// ascii is set when the writing needs an ASCII secret (it works on
	// bytes, or has words only for ASCII letters, or the finder reads it
	// in ASCII tokens only).
	ascii bool
	// outOfReach says why the finder cannot see this writing of secret,
	// "" when it can (docs/contract.md lists the same limits).
	outOfReach func(secret string) string
}

type class struct {
	name     string
	writings []writing
}

// eachRune joins the characters of s with sep(i) after the i-th.
func eachRune(s string, sep func(i int) string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		b.WriteRune(r)
		if i < len(rs)-1 {
			b.WriteString(sep(i))
		}
	}
	return b.String()
}

// groups writes s in groups of n characters, apart by sep.
func groups(s string, n int, sep string) string {
	rs := []rune(s)
	var parts []string
	for i := 0; i < len(rs); i += n {
		parts = append(parts, string(rs[i:min(len(rs), i+n)]))
	}
	return strings.Join(parts, sep)
}

// maskEvery replaces every n-th character of s (the n-th, 2n-th, …) with
// mask.
func maskEvery(s string, n int, mask string) string {
	var b strings.Builder
	for i, r := range []rune(s) {
		if (i+1)%n == 0 {
			b.WriteString(mask)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func swapPairs(s string) string {
	rs := []rune(s)
	for i := 0; i+1 < len(rs); i += 2 {
		rs[i], rs[i+1] = rs[i+1], rs[i]
	}
	return string(rs)
}

const fillerChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

func filler(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = fillerChars[rng.IntN(len(fillerChars))]
	}
	return string(b)
}

// chunks cuts s into pieces of n characters.
func chunks(s string, n int) []string {
	rs := []rune(s)
	var out []string
	for i := 0; i < len(rs); i += n {
		out = append(out, string(rs[i:min(len(rs), i+n)]))
	}
	return out
}

func compress(s string, zw func(*bytes.Buffer) interface {
	Write([]byte) (int, error)
	Close() error
}) []byte {
	var buf bytes.Buffer
	w := zw(&buf)
	w.Write([]byte(s))
	w.Close()
	return buf.Bytes()
}

func zlibBytes(s string) []byte {
	return compress(s, func(b *bytes.Buffer) interface {
		Write([]byte) (int, error)
		Close() error
	} {
		return zlib.NewWriter(b)
	})
}

func deflateBytes(s string) []byte {
	return compress(s, func(b *bytes.Buffer) interface {
		Write([]byte) (int, error)
		Close() error
	} {
		w, _ := flate.NewWriter(b, flate.BestCompression)
		return w
	})
}

// base58Encode writes b in Bitcoin's base58 alphabet.
func base58Encode(b []byte) string {
	const alpha = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	n := new(big.Int).SetBytes(b)
	var out []byte
	m := new(big.Int)
	for n.Sign() > 0 {
		n.DivMod(n, big.NewInt(58), m)
		out = append(out, alpha[m.Int64()])
	}
	for _, c := range b {
		if c != 0 {
			break
		}
		out = append(out, '1')
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

// base85RFC writes b in RFC 1924's alphabet, as Python's b85encode does.
func base85RFC(b []byte) string {
	const alpha = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"
	var out []byte
	for i := 0; i < len(b); i += 4 {
		var chunk [4]byte
		n := copy(chunk[:], b[i:])
		v := uint32(chunk[0])<<24 | uint32(chunk[1])<<16 | uint32(chunk[2])<<8 | uint32(chunk[3])
		var enc [5]byte
		for k := 4; k >= 0; k-- {
			enc[k] = alpha[v%85]
			v /= 85
		}
		out = append(out, enc[:n+1]...)
	}
	return string(out)
}

func ascii85Encode(b []byte) string {
	out := make([]byte, ascii85.MaxEncodedLen(len(b)))
	return string(out[:ascii85.Encode(out, b)])
}

// uuencode writes b as uuencode's body lines (45 bytes a line).
func uuencodeLines(b []byte) string {
	var lines []string
	for i := 0; i < len(b); i += 45 {
		part := b[i:min(len(b), i+45)]
		line := []byte{byte(' ' + len(part))}
		for k := 0; k < len(part); k += 3 {
			var g [3]byte
			copy(g[:], part[k:])
			v := uint32(g[0])<<16 | uint32(g[1])<<8 | uint32(g[2])
			for s := 18; s >= 0; s -= 6 {
				c := byte(v>>s) & 0x3f
				if c == 0 {
					line = append(line, '`')
				} else {
					line = append(line, ' '+c)
				}
			}
		}
		lines = append(lines, string(line))
	}
	return "begin 644 key.txt\n" + strings.Join(lines, "\n") + "\n`\nend"
}

func bitsOf(s, sep string) string {
	parts := make([]string, len(s))
	for i := 0; i < len(s); i++ {
		parts[i] = fmt.Sprintf("%08b", s[i])
	}
	return strings.Join(parts, sep)
}

var nato = map[rune]string{'a': "Alfa", 'b': "Bravo", 'c': "Charlie", 'd': "Delta", 'e': "Echo", 'f': "Foxtrot", 'g': "Golf",
	'h': "Hotel", 'i': "India", 'j': "Juliett", 'k': "Kilo", 'l': "Lima", 'm': "Mike", 'n': "November", 'o': "Oscar",
	'p': "Papa", 'q': "Quebec", 'r': "Romeo", 's': "Sierra", 't': "Tango", 'u': "Uniform", 'v': "Victor", 'w': "Whiskey",
	'x': "X-ray", 'y': "Yankee", 'z': "Zulu", '0': "zero", '1': "one", '2': "two", '3': "three", '4': "four", '5': "five",
	'6': "six", '7': "seven", '8': "eight", '9': "niner", '_': "underscore", '-': "dash", '.': "dot"}

var police = map[rune]string{'a': "Adam", 'b': "Boy", 'c': "Charles", 'd': "David", 'e': "Edward", 'f': "Frank", 'g': "George",
	'h': "Henry", 'i': "Ida", 'j': "John", 'k': "King", 'l': "Lincoln", 'm': "Mary", 'n': "Nora", 'o': "Ocean", 'p': "Peter",
	'q': "Queen", 'r': "Robert", 's': "Sam", 't': "Tom", 'u': "Union", 'v': "Victor", 'w': "William", 'x': "X-ray",
	'y': "Young", 'z': "Zebra"}

var morse = map[rune]string{'a': ".-", 'b': "-...", 'c': "-.-.", 'd': "-..", 'e': ".", 'f': "..-.", 'g': "--.", 'h': "....",
	'i': "..", 'j': ".---", 'k': "-.-", 'l': ".-..", 'm': "--", 'n': "-.", 'o': "---", 'p': ".--.", 'q': "--.-", 'r': ".-.",
	's': "...", 't': "-", 'u': "..-", 'v': "...-", 'w': ".--", 'x': "-..-", 'y': "-.--", 'z': "--..", '0': "-----",
	'1': ".----", '2': "..---", '3': "...--", '4': "....-", '5': ".....", '6': "-....", '7': "--...", '8': "---..",
	'9': "----.", '_': "..--.-", '-': "-....-", '.': ".-.-.-"}

// spellWith spells s one word per character from table (letters with
// their case said when upper is set), joined by sep; a character without
// a word is written as it is.
func spellWith(s string, table map[rune]string, sep string, cased bool) string {
	var parts []string
	for _, r := range s {
		lr := r | 0x20
		if r < 'A' || r > 'Z' {
			lr = r
		}
		w, ok := table[lr]
		switch {
		case !ok:
			w = string(r)
		case cased && 'A' <= r && r <= 'Z':
			w = "capital " + w
		case cased && 'a' <= r && r <= 'z':
			w = "lowercase " + w
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, sep)
}

// homoglyphs maps ASCII letters and digits to lookalikes of other scripts
// (rows of confusables.tsv).
func homoglyphs(scripts string) map[rune][]rune {
	m := map[rune][]rune{}
	for _, row := range tsvRows(confusablesTSV) {
		r, _ := utf8.DecodeRuneInString(row[1])
		if strings.Contains(row[3], scripts) {
			m[rune(row[2][0])] = append(m[rune(row[2][0])], r)
		}
	}
	return m
}

var cyrillic, greek, anyScript = homoglyphs("CYRILLIC"), homoglyphs("GREEK"), homoglyphs("")

// disguise replaces every character of s that table has a lookalike for.
func disguise(rng *rand.Rand, s string, table map[rune][]rune) string {
	var b strings.Builder
	for _, r := range s {
		if alts := table[r]; len(alts) > 0 {
			b.WriteRune(alts[rng.IntN(len(alts))])
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// summaryDoc is a structured summary whose fields hold texts.
func summaryDoc(fields map[string]any) string {
	doc := map[string]any{"schema_version": 1, "covers_through": 12}
	for k, v := range fields {
		doc[k] = v
	}
	b, _ := json.Marshal(doc)
	return string(b)
}

var bzip2Fixtures = func() map[string]string {
	b, err := os.ReadFile("testdata/bzip2.tsv")
	if err != nil {
		panic(err)
	}
	m := map[string]string{}
	for _, row := range tsvRows(string(b)) {
		m[row[0]] = row[1]
	}
	return m
}()

var writingClasses = []class{
	{"separators", []writing{
		{name: "groups of 4 with spaces", write: func(_ *rand.Rand, s string) string { return groups(s, 4, " ") }},
		{name: "groups of 4 with dashes", write: func(_ *rand.Rand, s string) string { return groups(s, 4, "-") }},
		{name: "groups of 5 with dots", write: func(_ *rand.Rand, s string) string { return groups(s, 5, ".") }},
		{name: "groups of 3 with slashes", write: func(_ *rand.Rand, s string) string { return groups(s, 3, " / ") }},
		{name: "one per space", write: func(_ *rand.Rand, s string) string { return eachRune(s, func(int) string { return " " }) }},
		{name: "one per tab", write: func(_ *rand.Rand, s string) string { return eachRune(s, func(int) string { return "\t" }) }},
		{name: "one per NBSP", write: func(_ *rand.Rand, s string) string { return eachRune(s, func(int) string { return "\u00a0" }) }},
		{name: "one per comma", write: func(_ *rand.Rand, s string) string { return eachRune(s, func(int) string { return "," }) }},
		{name: "one per comma and space", write: func(_ *rand.Rand, s string) string { return eachRune(s, func(int) string { return ", " }) }},
		{name: "one per dot", write: func(_ *rand.Rand, s string) string { return eachRune(s, func(int) string { return "." }) }},
		{name: "one per slash", write: func(_ *rand.Rand, s string) string { return eachRune(s, func(int) string { return "/" }) }},
		{name: "one per pipe", write: func(_ *rand.Rand, s string) string { return eachRune(s, func(int) string { return "|" }) }},
		{name: "one per ANSI reset", write: func(_ *rand.Rand, s string) string { return eachRune(s, func(int) string { return "\x1b[0m" }) }},
		{name: "one per ANSI colour", write: func(_ *rand.Rand, s string) string {
			return eachRune(s, func(i int) string { return fmt.Sprintf("\x1b[%d;1m", 31+i%6) })
		}},
		{name: "quoted characters", write: func(_ *rand.Rand, s string) string {
			return "'" + eachRune(s, func(int) string { return "', '" }) + "'"
		}},
		{name: "random separators", write: func(rng *rand.Rand, s string) string {
			seps := []string{" ", "-", "_", ".", ":", "  ", "\u2009", "\u200b", "*"}
			return eachRune(s, func(int) string { return seps[rng.IntN(len(seps))] })
		}},
	}},
	{"partial", []writing{
		{name: "every 8th masked with *", write: func(_ *rand.Rand, s string) string { return maskEvery(s, 8, "*") }},
		{name: "every 8th masked with X", write: func(_ *rand.Rand, s string) string { return maskEvery(s, 8, "X") }},
		{name: "every 4th masked with •", write: func(_ *rand.Rand, s string) string { return maskEvery(s, 4, "•") }},
		{name: "every 3rd masked with #", write: func(_ *rand.Rand, s string) string { return maskEvery(s, 3, "#") }},
		{name: "every 3rd masked with 0", write: func(_ *rand.Rand, s string) string { return maskEvery(s, 3, "0") },
			outOfReach: func(s string) string {
				if s == dbpass {
					return "masks that fall on the secret's separators leave single characters between pairs"
				}
				return ""
			}},
		{name: "pairs swapped", ascii: true, write: func(_ *rand.Rand, s string) string { return swapPairs(s) }},
		{name: "interleaved with one filler character", write: func(rng *rand.Rand, s string) string {
			return eachRune(s, func(int) string { return filler(rng, 1) })
		}},
		{name: "interleaved with two filler characters", write: func(rng *rand.Rand, s string) string {
			return eachRune(s, func(int) string { return filler(rng, 2) })
		}},
		{name: "7-character chunks across extensions array elements", doc: true, write: func(_ *rand.Rand, s string) string {
			return summaryDoc(map[string]any{"text": "compacted", "extensions": map[string]any{"parts": chunks(s, 7)}})
		}},
		{name: "7-character chunks across the fields of one entry", doc: true, write: func(_ *rand.Rand, s string) string {
			c := chunks(s, 7)
			entry := map[string]any{"op_id": "rotate", "status": "pending", "description": strings.Join(c[:len(c)/2], "")}
			fields := map[string]any{"pending": []any{entry}, "next_steps": c[len(c)/2:]}
			return summaryDoc(fields)
		}},
		{name: "6-character chunks in one text, words between", write: func(rng *rand.Rand, s string) string {
			words := []string{"then", "and after that", "followed by", "next", "continuing with"}
			c := chunks(s, 6)
			var b strings.Builder
			for i, p := range c {
				if i > 0 {
					b.WriteString(" " + words[rng.IntN(len(words))] + " ")
				}
				b.WriteString(p)
			}
			return b.String()
		}},
		{name: "7-character chunks numbered", write: func(_ *rand.Rand, s string) string {
			var parts []string
			for i, p := range chunks(s, 7) {
				parts = append(parts, fmt.Sprintf("part %d: %s", i+1, p))
			}
			return strings.Join(parts, "; ")
		}},
		{name: "the last quarter hidden, every 7th masked", write: func(_ *rand.Rand, s string) string {
			rs := []rune(s)
			return maskEvery(string(rs[:len(rs)*3/4]), 7, "?") + strings.Repeat("*", len(rs)-len(rs)*3/4)
		}},
	}},
	{"encodings", []writing{
		{name: "zlib+base64", ascii: true, write: func(_ *rand.Rand, s string) string { return base64.StdEncoding.EncodeToString(zlibBytes(s)) }},
		{name: "raw deflate+base64", ascii: true, write: func(_ *rand.Rand, s string) string {
			return base64.StdEncoding.EncodeToString(deflateBytes(s))
		}},
		{name: "zlib+hex", ascii: true, write: func(_ *rand.Rand, s string) string { return hex.EncodeToString(zlibBytes(s)) }},
		{name: "base32hex", write: func(_ *rand.Rand, s string) string { return base32.HexEncoding.EncodeToString([]byte(s)) }},
		{name: "base32hex lower case, no padding", write: func(_ *rand.Rand, s string) string {
			return strings.ToLower(base32.HexEncoding.WithPadding(base32.NoPadding).EncodeToString([]byte(s)))
		}},
		{name: "base58", write: func(_ *rand.Rand, s string) string { return base58Encode([]byte(s)) }},
		{name: "Ascii85", write: func(_ *rand.Rand, s string) string { return ascii85Encode([]byte(s)) }},
		{name: "Ascii85 in <~ ~>", write: func(_ *rand.Rand, s string) string { return "<~" + ascii85Encode([]byte(s)) + "~>" }},
		{name: "base85 (RFC 1924)", write: func(_ *rand.Rand, s string) string { return base85RFC([]byte(s)) }},
		{name: "uuencode", write: func(_ *rand.Rand, s string) string { return uuencodeLines([]byte(s)) }},
		{name: "bits", ascii: true, write: func(_ *rand.Rand, s string) string { return bitsOf(s, "") }},
		{name: "bits, a space between bytes", ascii: true, write: func(_ *rand.Rand, s string) string { return bitsOf(s, " ") }},
		{name: "base64 of zlib, wrapped", ascii: true, write: func(_ *rand.Rand, s string) string {
			return wrapEvery(base64.StdEncoding.EncodeToString(zlibBytes(s)), 20)
		}},
	}},
	{"spelled", []writing{
		{name: "NATO alphabet", ascii: true, write: func(_ *rand.Rand, s string) string { return spellWith(s, nato, " ", false) }},
		{name: "NATO alphabet with case", ascii: true, write: func(_ *rand.Rand, s string) string { return spellWith(s, nato, ", ", true) }},
		{name: "NATO alphabet upper case, dashes", ascii: true, write: func(_ *rand.Rand, s string) string {
			return strings.ToUpper(spellWith(s, nato, "-", false))
		}},
		{name: "police alphabet", ascii: true, write: func(_ *rand.Rand, s string) string { return spellWith(s, police, " ", false) }},
		{name: "Morse", ascii: true, write: func(_ *rand.Rand, s string) string { return spellWith(strings.ToLower(s), morse, " ", false) }},
		{name: "Morse with slashes", ascii: true, write: func(_ *rand.Rand, s string) string { return spellWith(strings.ToLower(s), morse, " / ", false) }},
		{name: "letter names with case", ascii: true, write: func(_ *rand.Rand, s string) string {
			return spellWith(s, map[rune]string{'0': "zero", '1': "one", '2': "two", '3': "three", '4': "four", '5': "five",
				'6': "six", '7': "seven", '8': "eight", '9': "nine"}, ", ", true)
		}},
		{name: "Atbash", ascii: true, write: func(_ *rand.Rand, s string) string { return atbash(s) }},
		{name: "ROT5", ascii: true, write: func(_ *rand.Rand, s string) string { return shiftDigits(s, 5) }},
		{name: "ROT18", ascii: true, write: func(_ *rand.Rand, s string) string { return shiftDigits(shiftLetters(s, 13), 5) }},
		{name: "Atbash reversed", ascii: true, write: func(_ *rand.Rand, s string) string { return reverseString(atbash(s)) }},
	}},
	{"homoglyphs", []writing{
		{name: "Cyrillic lookalikes", write: func(rng *rand.Rand, s string) string { return disguise(rng, s, cyrillic) }},
		{name: "Greek lookalikes", write: func(rng *rand.Rand, s string) string { return disguise(rng, s, greek) }},
		{name: "lookalikes of every script of the table", write: func(rng *rand.Rand, s string) string { return disguise(rng, s, anyScript) }},
		{name: "lookalikes, grouped by 4", write: func(rng *rand.Rand, s string) string { return groups(disguise(rng, s, anyScript), 4, " ") }},
		{name: "lookalikes, every 8th masked", write: func(rng *rand.Rand, s string) string {
			return maskEvery(disguise(rng, s, anyScript), 8, "*")
		}},
	}},
}

// randomSecret is a secret of one of the shapes keys and passwords have.
func randomSecret(rng *rand.Rand) string {
	const b62 = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	pick := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = b62[rng.IntN(len(b62))]
		}
		return string(b)
	}
	switch rng.IntN(5) {
	case 0:
		return "sk_live_" + pick(24+rng.IntN(24))
	case 1:
		return "ghp_" + pick(36)
	case 2:
		return pick(24 + rng.IntN(40))
	case 3:
		return "AKIA" + strings.ToUpper(pick(16))
	}
	return pick(8) + "-" + pick(8) + "-" + pick(8)
}

// assertFound checks that r finds the secret in a writing and that no
// form of it survives redaction; doc writings are read as JSON.
func foundAndGone(r *Redactor, text string, doc bool) (found bool, leftover string) {
	if doc {
		if !r.ContainsJSON([]byte(text)) {
			return false, ""
		}
		out := r.JSON([]byte(text))
		if r.ContainsJSON(out) {
			return true, string(out)
		}
		return true, ""
	}
	if !r.Contains(text) || len(r.Find(text)) == 0 {
		return false, ""
	}
	out := r.String(text)
	if r.Contains(out) {
		return true, out
	}
	// and inside a summary, as a writer redacts it
	d := summaryDoc(map[string]any{"text": "Compacted. " + text + " (end)"})
	if !r.ContainsJSON([]byte(d)) {
		return false, ""
	}
	if red := r.JSON([]byte(d)); r.ContainsJSON(red) {
		return true, string(red)
	}
	return true, ""
}
