package importer

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/compact-eval/compact-eval/internal/textmatch"
	"github.com/compact-eval/compact-eval/scenarios"
)

// Limits that keep the suggestion state bounded whatever the log's size.
const (
	maxConstraints  = 10
	maxCorrections  = 8
	maxSecrets      = 20
	maxQuantities   = 12
	maxPaths        = 1000
	maxArtifactSets = 10
	maxPending      = 20
)

// The suggestion kinds, in the order they are written.
type constraintSug struct {
	idx      int
	sentence string
	pattern  string
}

type correctionSug struct {
	idx      int
	old, new string
	text     string
}

type quantitySug struct {
	idx   int
	value float64
	unit  string
	raw   string
}

type pathInfo struct {
	first, last int // event indexes
	order       int // order of first sight
}

// scanner looks at each event as it is added and keeps bounded candidate
// lists for the suggested invariants.
type scanner struct {
	constraints []constraintSug
	corrections []correctionSug
	quantities  []quantitySug
	secrets     []string
	secretIdx   map[string]int
	paths       map[string]*pathInfo
	pathsFull   bool
	seen        map[string]bool // dedupe key for constraints and quantities
}

func newScanner() *scanner {
	return &scanner{secretIdx: map[string]int{}, paths: map[string]*pathInfo{}, seen: map[string]bool{}}
}

func (s *scanner) event(idx int, r rec) {
	r.text = stripTrimMarker(r.text)
	s.tokens(idx, r.text)
	if len(r.args) > 0 {
		s.tokens(idx, string(r.args))
	}
	if r.kind != kindText || strings.HasPrefix(r.text, "[earlier compaction summary]") {
		return
	}
	switch r.role {
	case scenarios.RoleUser:
		s.corrections = appendCorrections(s.corrections, idx, r.text)
		fallthrough
	case scenarios.RoleSystem:
		s.sentences(idx, r.text)
		s.quantity(idx, r.text)
	}
}

var trimMarker = regexp.MustCompile(`…\[trimmed \d+ chars\]$`)

// stripTrimMarker removes the marker --max-event-chars adds, so suggestions
// are drawn only from the text the event keeps.
func stripTrimMarker(s string) string {
	if !strings.HasSuffix(s, " chars]") {
		return s
	}
	if loc := trimMarker.FindStringIndex(s); loc != nil {
		return s[:loc[0]]
	}
	return s
}

var constraintRE = regexp.MustCompile(`(?i)\b(do not|don't|dont|must not|mustn't|never|only|read[- ]?only|no|nunca|jamas|solo|solamente|unicamente|solo lectura)\b(?:\s+\S+){0,3}`)

// sentences looks for constraint sentences in user and system text.
func (s *scanner) sentences(idx int, text string) {
	if len(s.constraints) >= maxConstraints {
		return
	}
	if len(text) > 20000 {
		text = text[:20000]
	}
	for _, sent := range splitSentences(text) {
		if len(s.constraints) >= maxConstraints {
			return
		}
		folded := strings.ToLower(textmatch.Fold(sent))
		for _, m := range constraintRE.FindAllString(folded, 3) {
			if len(s.constraints) >= maxConstraints {
				return
			}
			m = strings.TrimRight(m, ".,;:!?\"'")
			if len(strings.Fields(m)) < 2 && !strings.Contains(m, "only") {
				continue // a bare "no" or "never" says too little
			}
			pattern := regexp.QuoteMeta(m)
			switch {
			case strings.Contains(m, "read") && strings.Contains(m, "only"):
				pattern = `read[- ]?only`
			case strings.Contains(m, "solo lectura"):
				pattern = `solo lectura`
			}
			if s.seen["c:"+pattern] {
				continue
			}
			s.seen["c:"+pattern] = true
			s.constraints = append(s.constraints, constraintSug{idx: idx, sentence: sent, pattern: pattern})
		}
	}
}

// splitSentences splits text at sentence ends and line breaks.
func splitSentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		end := c == '\n' || ((c == '.' || c == '!' || c == '?' || c == ';') && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n'))
		if !end {
			continue
		}
		if t := strings.TrimSpace(text[start : i+1]); len(t) > 1 {
			out = append(out, t)
		}
		start = i + 1
	}
	if t := strings.TrimSpace(text[start:]); len(t) > 1 {
		out = append(out, t)
	}
	return out
}

var (
	notButRE  = regexp.MustCompile(`(?i)\bnot\s+([^,.;!?]{1,40}?),?\s+but\s+([^,.;!?]{1,40})`)
	sinoRE    = regexp.MustCompile(`(?i)\bno\s+(?:es\s+|son\s+|era\s+)?([^,.;!?]{1,40}?),?\s+sino\s+(?:que\s+)?([^,.;!?]{1,40})`)
	xNotYRE   = regexp.MustCompile(`(?i)(\S+),\s+not\s+(\S+?)[.;!?]?(?:\s|$)`)
	leadingRE = regexp.MustCompile(`(?i)^(?:actually|correction|en realidad|correcci[oó]n|i meant|quise decir|perd[oó]n)\b[,:]?\s*([^.;!?\n]{1,80})`)
)

// appendCorrections finds "actually …", "not X but Y", "no X sino Y" and
// "Y, not X" in a user message.
func appendCorrections(list []correctionSug, idx int, text string) []correctionSug {
	if len(list) >= maxCorrections {
		return list
	}
	if len(text) > 20000 {
		text = text[:20000]
	}
	flat := strings.Join(strings.Fields(text), " ")
	add := func(old, new string) {
		list = append(list, correctionSug{idx: idx, old: strings.TrimSpace(old), new: strings.TrimSpace(new), text: flat})
	}
	switch {
	case notButRE.MatchString(flat):
		m := notButRE.FindStringSubmatch(flat)
		add(m[1], m[2])
	case sinoRE.MatchString(flat):
		m := sinoRE.FindStringSubmatch(flat)
		add(m[1], m[2])
	case leadingRE.MatchString(flat):
		m := leadingRE.FindStringSubmatch(flat)
		if x := xNotYRE.FindStringSubmatch(flat); x != nil {
			add(x[2], x[1])
		} else {
			add("TODO", m[1])
		}
	}
	return list
}

var quantityRE = regexp.MustCompile(`(?i)(?:^|[^\w.,])(\d{1,3}(?:,\d{3})+|\d+(?:[.,]\d+)?)\s?(%|percent|por ciento|ms|milliseconds?|milisegundos?|seconds?|secs?|segundos?|s|minutes?|minutos?|mins?|hours?|horas?|h|days?|d[ií]as?|tokens?|kib|mib|gib|kb|mb|gb|tb|bytes?|req/s|rps|qps|usd|eur|€|°c|ms/op)(?:[^\w%]|$)`)

func (s *scanner) quantity(idx int, text string) {
	if len(text) > 20000 {
		text = text[:20000]
	}
	for _, m := range quantityRE.FindAllStringSubmatch(text, -1) {
		if len(s.quantities) >= maxQuantities {
			return
		}
		num := m[1]
		if strings.Count(num, ",") >= 1 && len(num) > 4 && num[len(num)-4] == ',' {
			num = strings.ReplaceAll(num, ",", "")
		} else {
			num = strings.ReplaceAll(num, ",", ".")
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			continue
		}
		unit := strings.ToLower(m[2])
		key := "q:" + strconv.FormatFloat(v, 'g', -1, 64) + unit
		if s.seen[key] {
			continue
		}
		s.seen[key] = true
		s.quantities = append(s.quantities, quantitySug{idx: idx, value: v, unit: unit, raw: strings.TrimSpace(strings.Trim(m[0], " ,.;:()"))})
	}
}

// tokens splits text into path- or key-like tokens with a byte loop (no
// regular expression: this runs over every byte of the log).
func (s *scanner) tokens(idx int, text string) {
	start := -1
	var punct bool // the token has a '/', '.' or '='
	for i := 0; i <= len(text); i++ {
		if i < len(text) && tokenBytes[text[i]] {
			if start < 0 {
				start, punct = i, false
			}
			if c := text[i]; c == '/' || c == '.' || c == '=' {
				punct = true
			}
			continue
		}
		if start >= 0 {
			// Keys are at least 19 characters; a shorter token matters only
			// if it may be a path.
			if n := i - start; n >= 4 && n <= 300 && (punct || n >= 19) {
				s.token(idx, text[start:i])
			}
			start = -1
		}
	}
}

// tokenBytes marks the bytes that may appear in a path or a key.
var tokenBytes = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '_' || c == '.' || c == '/' || c == '-' || c == '+' || c == '=' || c == '~'
	}
	return t
}()

func (s *scanner) token(idx int, tok string) {
	tok = strings.TrimRight(tok, ".")
	if i := strings.IndexByte(tok, '='); i > 0 && i < len(tok)-1 && tok[i+1] != '=' {
		// NAME=value: look at both sides.
		s.token(idx, tok[:i])
		s.token(idx, tok[i+1:])
		return
	}
	if isSecret(tok) {
		if _, ok := s.secretIdx[tok]; !ok && len(s.secrets) < maxSecrets {
			s.secretIdx[tok] = idx
			s.secrets = append(s.secrets, tok)
		}
		return
	}
	if !isPath(tok) {
		return
	}
	if p, ok := s.paths[tok]; ok {
		p.last = idx
		return
	}
	if len(s.paths) >= maxPaths {
		s.pathsFull = true
		return
	}
	s.paths[tok] = &pathInfo{first: idx, last: idx, order: len(s.paths)}
}

var secretPrefixes = []string{"sk-ant-", "sk-proj-", "sk-", "ghp_", "gho_", "ghs_", "ghu_", "github_pat_", "glpat-", "AKIA", "ASIA", "xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "AIza"}

// isSecret reports a known key prefix followed by enough key characters, or
// a high-entropy token of at least 24 characters.
func isSecret(tok string) bool {
	for _, p := range secretPrefixes {
		if strings.HasPrefix(tok, p) && len(tok) >= len(p)+16 && !strings.ContainsAny(tok, "./~") {
			return true
		}
	}
	if len(tok) < 24 || strings.ContainsAny(tok, ".~") {
		return false
	}
	var upper, lower, digit bool
	hex := true
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c >= 'A' && c <= 'Z':
			upper = true
			hex = hex && c <= 'F'
		case c >= 'a' && c <= 'z':
			lower = true
			hex = hex && c <= 'f'
		case c >= '0' && c <= '9':
			digit = true
		case c == '-':
		default:
			hex = false
		}
	}
	if hex || !upper || !lower || !digit {
		return false // digests, uuids and words are not keys
	}
	return entropy(tok) >= 4.0
}

// entropy is the Shannon entropy of s's bytes, in bits per byte.
func entropy(s string) float64 {
	var freq [256]int
	for i := 0; i < len(s); i++ {
		freq[s[i]]++
	}
	h := 0.0
	n := float64(len(s))
	for _, f := range freq {
		if f > 0 {
			p := float64(f) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

var pathExts = map[string]bool{
	"go": true, "py": true, "js": true, "ts": true, "tsx": true, "jsx": true, "rs": true, "c": true, "h": true,
	"cc": true, "cpp": true, "hpp": true, "java": true, "kt": true, "rb": true, "php": true, "cs": true, "swift": true,
	"sh": true, "bash": true, "zsh": true, "ps1": true, "sql": true, "yaml": true, "yml": true, "json": true,
	"jsonl": true, "toml": true, "ini": true, "cfg": true, "conf": true, "env": true, "md": true, "txt": true,
	"rst": true, "csv": true, "tsv": true, "log": true, "html": true, "css": true, "scss": true, "xml": true,
	"lock": true, "mod": true, "sum": true, "proto": true, "tf": true, "gradle": true, "pem": true, "crt": true,
	"key": true, "bak": true, "orig": true, "tmp": true, "db": true, "sqlite": true, "parquet": true, "ipynb": true,
	"vue": true, "svelte": true, "dockerfile": true, "mk": true, "patch": true, "diff": true, "pdf": true, "png": true,
}

// isPath reports a token that names a file: an absolute, relative or home
// path, or a name with a known extension.
func isPath(tok string) bool {
	if strings.HasPrefix(tok, "//") || strings.Contains(tok, "...") || strings.ContainsAny(tok, "+=") {
		return false
	}
	letter := false
	for i := 0; i < len(tok); i++ {
		c := tok[i] | 0x20
		if c >= 'a' && c <= 'z' {
			letter = true
			break
		}
	}
	if !letter {
		return false
	}
	for _, p := range []string{"/", "./", "../", "~/"} {
		if strings.HasPrefix(tok, p) && len(tok) > len(p)+1 {
			return true
		}
	}
	base := tok[strings.LastIndexByte(tok, '/')+1:]
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 || dot == len(base)-1 {
		return false
	}
	return pathExts[strings.ToLower(base[dot+1:])]
}

// artifactGroups returns groups of near-twin paths: at an edit distance of 2
// or less (names of 5 characters or more), or equal but for the extension.
// Each group lists its paths in order of first sight.
func (s *scanner) artifactGroups() [][]string {
	type item struct {
		path string
		info *pathInfo
	}
	items := make([]item, 0, len(s.paths))
	for p, info := range s.paths {
		items = append(items, item{p, info})
	}
	sort.Slice(items, func(i, j int) bool { return items[i].info.order < items[j].info.order })
	parent := make([]int, len(items))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := range items {
		for j := i + 1; j < len(items); j++ {
			a, b := items[i].path, items[j].path
			if twins(a, b) {
				parent[find(j)] = find(i)
			}
		}
	}
	groups := map[int][]string{}
	var roots []int
	for i, it := range items {
		r := find(i)
		if _, ok := groups[r]; !ok {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], it.path)
	}
	var out [][]string
	for _, r := range roots {
		if len(groups[r]) > 1 && len(out) < maxArtifactSets {
			out = append(out, groups[r])
		}
	}
	return out
}

func twins(a, b string) bool {
	if sa, sb := stripExt(a), stripExt(b); sa == sb && sa != a && sb != b {
		return true
	}
	if len(a) < 5 || len(b) < 5 || abs(len(a)-len(b)) > 2 {
		return false
	}
	return withinDistance(a, b, 2)
}

func stripExt(p string) string {
	base := strings.LastIndexByte(p, '/') + 1
	if dot := strings.LastIndexByte(p[base:], '.'); dot > 0 {
		return p[:base+dot]
	}
	return p
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// withinDistance reports whether the Levenshtein distance of a and b is at
// most k, computing only the diagonal band and stopping early.
func withinDistance(a, b string, k int) bool {
	if a == b {
		return true
	}
	const inf = 1 << 20
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(len(b), i+k)
		for j := range cur {
			cur[j] = inf
		}
		if lo == 1 {
			cur[0] = i
		}
		best := cur[0]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := prev[j-1] + cost
			if prev[j]+1 < v {
				v = prev[j] + 1
			}
			if cur[j-1]+1 < v {
				v = cur[j-1] + 1
			}
			cur[j] = v
			if v < best {
				best = v
			}
		}
		if best > k {
			return false
		}
		prev, cur = cur, prev
	}
	return prev[len(b)] <= k
}
