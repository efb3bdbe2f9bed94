package suggest

import (
	"sort"
	"strings"

	"github.com/compact-eval/compact-eval/internal/lazyre"
)

// editTools are tool names that write the file they name.
var editToolRE = lazyre.New(`(?i)edit|write|patch|replace|create|insert|str_replace|apply|save|rename|move|delete`)

// writeCommandRE marks a shell command that writes the files it names.
var writeCommandRE = lazyre.New(`(?:\bsed\s+(?:-[a-zA-Z]*i|--in-place)|\btee\b|>>?\s*\S|\bmv\b|\bcp\b|\brm\b|\btouch\b|\bgit\s+mv\b|\bpatch\b|\bperl\s+-[a-z]*i)`)

// writeWords are what writeCommandRE needs one of; mayWrite checks them
// first, since most commands hold none and the pattern is slow to rule out.
var writeWords = []string{">", "sed", "tee", "mv", "cp", "rm", "touch", "patch", "perl"}

func mayWrite(args string) bool {
	for _, w := range writeWords {
		if strings.Contains(args, w) {
			return true
		}
	}
	return false
}

// moveRE is a shell command that moves (renames) one file: its source and
// destination.
var moveRE = lazyre.New(`(?:^|[\s;&|"])(?:git\s+)?mv\s+(?:-\S+\s+)*(\S+)\s+([^\s;&|"]+)`)

// patchFileRE names the files an apply_patch input changes.
var patchFileRE = lazyre.New(`\*\*\* (?:Update|Add|Delete) File: (\S+)`)

// touch records the paths a tool call names in its arguments: read,
// written, edited or executed. Paths that only appear in tool output (a
// listing, a grep) are not touched.
func (s *Scanner) touch(idx int, name, args string) {
	if args == "" {
		return
	}
	writes := editToolRE.MatchString(name) || mayWrite(args) && writeCommandRE.MatchString(args) || strings.Contains(args, `"old_string"`) ||
		strings.Contains(args, `"new_str`) || strings.Contains(args, `"content"`)
	var edited map[string]bool
	if strings.Contains(args, "*** ") {
		edited = map[string]bool{}
		for _, m := range patchFileRE.FindAllStringSubmatch(args, -1) {
			edited[m[1]] = true
		}
	}
	if m := moveRE.FindStringSubmatch(args); m != nil {
		from, to := pathTokens(m[1]), pathTokens(m[2])
		if len(from) == 1 && len(to) == 1 && from[0] != to[0] && len(s.renames) < maxArtifactSets {
			s.renames = append(s.renames, [2]string{s.rel(from[0]), s.rel(to[0])})
		}
	}
	for _, raw := range pathTokens(args) {
		tok, info := s.pathAt(idx, raw)
		if info == nil {
			continue
		}
		if writes || edited[tok] || edited[raw] {
			info.edited = idx
		}
	}
}

// pathAt records that the event at idx names the path written raw, and
// returns the file's key and record (nil once MaxPaths files are known).
func (s *Scanner) pathAt(idx int, raw string) (string, *pathInfo) {
	tok := s.rel(raw)
	info, ok := s.paths[tok]
	if !ok {
		if len(s.paths) >= MaxPaths {
			s.pathsFull = true
			return tok, nil
		}
		info = &pathInfo{first: idx, order: len(s.paths), edited: -1, spelled: raw}
		s.paths[tok] = info
	}
	if raw == tok {
		info.spelled = tok // the short form, as the session wrote it
	}
	info.last = idx
	return tok, info
}

// Edited records that the event at idx (a call, or the result after it)
// wrote path, which the call's arguments do not name: SWE-agent's edit
// command writes the open file.
func (s *Scanner) Edited(idx int, path string) {
	for _, raw := range pathTokens(path) {
		if _, info := s.pathAt(idx, raw); raw == path && info != nil {
			info.edited = idx
		}
	}
}

// SetRoot gives the session's working directory (a Claude Code line's
// cwd, a Codex session's, a SWE-agent's working_dir): a path under it and
// the same path relative to it are one file, "/work/repo/lib/x.ex" and
// "lib/x.ex". Paths scanned before it are left as they were.
func (s *Scanner) SetRoot(dir string) {
	dir = strings.TrimRight(dir, "/")
	if strings.HasPrefix(dir, "/") && len(dir) > 1 {
		s.root = dir + "/"
	}
}

// rel is p relative to the session's root when it is under it, without a
// leading "./": the key one file is known by however it is written.
func (s *Scanner) rel(p string) string {
	if s.root != "" && strings.HasPrefix(p, s.root) && len(p) > len(s.root) {
		p = p[len(s.root):]
	}
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}

// Spelled is how the session wrote the file known as key (a path of
// ArtifactGroups, Required or Siblings): the short form when any event
// wrote it so, else the first form seen. A suggestion names it so, since
// the artifact check looks for a path as an event writes it.
func (s *Scanner) Spelled(key string) string { return s.spelled(key) }

// spelled is how the session wrote the file known as key: the short form
// when any event wrote it so, else the first form seen. A suggestion names
// it so, since the artifact check looks for a path as an event writes it.
func (s *Scanner) spelled(key string) string {
	if info, ok := s.paths[key]; ok && info.spelled != "" {
		return info.spelled
	}
	if sp, ok := s.listedAs[key]; ok {
		return sp
	}
	return key
}

// pathTokens returns the whole path tokens of text: a path is cut only at
// characters that cannot be part of it, never inside "root.html.heex".
func pathTokens(text string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && pathBytes[text[i]] {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			// A trailing slash names the same folder: "src/" is "src".
			tok := strings.TrimRight(text[start:i], ".-/")
			if i < len(text) && text[i] == '(' {
				tok = "" // a call: console.log(…)
			}
			if strings.HasPrefix(tok, "a/") || strings.HasPrefix(tok, "b/") {
				tok = tok[2:] // a diff's prefixes
			}
			if len(tok) >= 4 && len(tok) <= 300 && isPath(tok) {
				out = append(out, tok)
			}
			start = -1
		}
	}
	return out
}

// pathBytes marks the bytes that may appear in a path.
var pathBytes = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '_' || c == '.' || c == '/' || c == '-' || c == '+' || c == '~' || c == '@'
	}
	return t
}()

var pathExts = map[string]bool{
	"go": true, "py": true, "js": true, "ts": true, "tsx": true, "jsx": true, "rs": true, "c": true, "h": true,
	"cc": true, "cpp": true, "hpp": true, "java": true, "kt": true, "rb": true, "php": true, "cs": true, "swift": true,
	"sh": true, "bash": true, "zsh": true, "ps1": true, "sql": true, "yaml": true, "yml": true, "json": true,
	"jsonl": true, "toml": true, "ini": true, "cfg": true, "conf": true, "env": true, "md": true, "txt": true,
	"rst": true, "csv": true, "tsv": true, "log": true, "html": true, "css": true, "scss": true, "xml": true,
	"lock": true, "mod": true, "sum": true, "proto": true, "tf": true, "gradle": true, "pem": true, "crt": true,
	"key": true, "bak": true, "orig": true, "tmp": true, "db": true, "sqlite": true, "parquet": true, "ipynb": true,
	"vue": true, "svelte": true, "dockerfile": true, "mk": true, "patch": true, "diff": true, "pdf": true, "png": true,
	"ex": true, "exs": true, "heex": true, "eex": true, "leex": true, "erl": true, "hs": true, "ml": true, "scala": true,
	"lua": true, "pl": true, "r": true, "jl": true, "dart": true, "tsv.gz": true, "gz": true, "zip": true, "tar": true,
}

// memberStems are object names whose ".log", ".env", ".path" are member
// accesses in code, not files.
var memberStems = map[string]bool{
	"console": true, "process": true, "window": true, "document": true, "module": true, "exports": true,
	"self": true, "this": true, "os": true, "sys": true, "math": true, "json": true, "req": true, "res": true,
	"request": true, "response": true, "logger": true, "ctx": true, "import": true, "object": true, "array": true,
	"string": true,
}

// isPath reports a token that names a file: an absolute, relative or home
// path, or a name whose extensions include a known one ("root.html.heex").
func isPath(tok string) bool {
	if strings.HasPrefix(tok, "//") || strings.Contains(tok, "...") || strings.Contains(tok, "://") ||
		strings.ContainsAny(tok, "+=@") {
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
	slash := strings.LastIndexByte(tok, '/')
	base := tok[slash+1:]
	dot := strings.IndexByte(base, '.')
	if dot <= 0 || dot == len(base)-1 {
		return false
	}
	// Some extension is a known one, and the last is known or a number
	// (app.log.1): process.env.NODE_ENV is not a file.
	exts := strings.Split(base[dot+1:], ".")
	known := false
	for _, ext := range exts {
		known = known || pathExts[strings.ToLower(ext)]
	}
	last := strings.ToLower(exts[len(exts)-1])
	if !known || !pathExts[last] && strings.Trim(last, "0123456789") != "" {
		return false
	}
	if slash < 0 && len(exts) == 1 && memberStems[strings.ToLower(base[:dot])] {
		return false // console.log, process.env
	}
	return true
}

// ArtifactGroups returns groups of near-twin paths among the paths tool
// calls touched: at an edit distance of 2 or less (names of 5 characters or
// more), equal but for the extension, or one the other with a suffix
// (".bak", ".1"). Each group lists its paths in order of first sight.
func (s *Scanner) ArtifactGroups() [][]string {
	s.artifactsOver = 0
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
	at := map[string]int{}
	for i, it := range items {
		at[it.path] = i
	}
	for i := range items {
		for j := i + 1; j < len(items); j++ {
			if twins(items[i].path, items[j].path) {
				parent[find(j)] = find(i)
			}
		}
	}
	for _, r := range s.renames {
		i, ok1 := at[r[0]]
		j, ok2 := at[r[1]]
		if ok1 && ok2 {
			parent[find(j)] = find(i) // one file under its old and new name
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
		if len(groups[r]) > 1 && s.matters(groups[r]) {
			if len(out) == maxArtifactSets {
				s.artifactsOver++
				continue
			}
			out = append(out, groups[r])
		}
	}
	return out
}

// matters reports a group where the choice matters: the session edited one
// of the paths, the user named one, or separate calls touched them. Two
// rotated logs that one grep read are not an artifact to keep straight.
func (s *Scanner) matters(group []string) bool {
	calls := map[int]bool{}
	for _, p := range group {
		info := s.paths[p]
		if info.edited >= 0 || s.userPaths[p] {
			return true
		}
		calls[info.first], calls[info.last] = true, true
	}
	return len(calls) > 1 // touched by separate calls, not one command naming both
}

// Required picks the path of a group the session edited last, else the one
// it touched last; a file the session moved is required under the name it
// moved it to.
func (s *Scanner) Required(group []string) (string, int, bool) {
	in := map[string]bool{}
	for _, p := range group {
		in[p] = true
	}
	for k := len(s.renames) - 1; k >= 0; k-- {
		if r := s.renames[k]; in[r[0]] && in[r[1]] {
			return r[1], s.paths[r[1]].last, true
		}
	}
	best, bestIdx, edited := group[0], -1, false
	for _, p := range group {
		if info := s.paths[p]; info.edited > bestIdx || !edited && info.edited < 0 && info.last > bestIdx {
			if info.edited >= 0 {
				best, bestIdx, edited = p, info.edited, true
			} else if !edited {
				best, bestIdx = p, info.last
			}
		}
	}
	return best, bestIdx, edited
}

func twins(a, b string) bool {
	if sa, sb := stripExt(a), stripExt(b); sa == sb && sa != a && sb != b {
		return true
	}
	if strings.HasPrefix(b, a+".") || strings.HasPrefix(a, b+".") {
		return true // a backup or a rotated copy: x and x.bak, x.1
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

// list records the paths a tool's output names (a listing, a search's
// matches): not touched, but a copy the session saw.
func (s *Scanner) list(idx int, text string) {
	if len(text) > maxScanChars {
		text = text[:maxScanChars]
	}
	for _, raw := range pathTokens(text) {
		p := s.rel(raw)
		if _, ok := s.listed[p]; !ok && len(s.listed) < MaxPaths {
			s.listed[p] = idx
			s.listedAs[p] = raw
		}
		if raw == p {
			s.listedAs[p] = p
		}
	}
}

// Sibling is a file the session edited among same-named files in other
// folders, which a summary can confuse with it: Paths (the edited one
// first) and each one's Status.
type Sibling struct {
	Paths  []string
	Status []string
	Idx    int // the edit
}

// maxSiblings bounds the same-named copies listed with an edited file.
const maxSiblings = 4

// Siblings returns, for each file the session edited, the same-named files
// in other folders that it touched or that a tool listed; none for a file
// already in a near-twin group.
func (s *Scanner) Siblings() []Sibling {
	grouped := map[string]bool{}
	for _, g := range s.ArtifactGroups() {
		for _, p := range g {
			grouped[p] = true
		}
	}
	type cand struct {
		path string
		info *pathInfo
	}
	var edited []cand
	for p, info := range s.paths {
		if info.edited >= 0 && !grouped[p] && strings.Contains(p, ".") {
			edited = append(edited, cand{p, info})
		}
	}
	sort.Slice(edited, func(i, j int) bool { return edited[i].info.order < edited[j].info.order })
	var out []Sibling
	for _, e := range edited {
		base := e.path[strings.LastIndexByte(e.path, '/')+1:]
		if !strings.Contains(base, ".") || len(out) == maxArtifactSets {
			continue
		}
		sib := Sibling{Paths: []string{e.path}, Status: []string{"edited"}, Idx: e.info.edited}
		both := false
		var others []string
		for p := range s.paths {
			others = append(others, p)
		}
		for p := range s.listed {
			if _, ok := s.paths[p]; !ok {
				others = append(others, p)
			}
		}
		sort.Strings(others)
		for _, p := range others {
			if len(sib.Paths) == maxSiblings+1 || !s.sameNameElsewhere(e.path, p) {
				continue
			}
			status := "listed by a tool"
			if info, ok := s.paths[p]; ok {
				status = "read, not edited"
				if info.edited >= 0 {
					both = true // both are live: no one of them is the file
				}
			}
			sib.Paths = append(sib.Paths, p)
			sib.Status = append(sib.Status, status)
		}
		if len(sib.Paths) > 1 && !both {
			out = append(out, sib)
		}
	}
	return out
}

// sameNameElsewhere reports b as a file of a's name in another folder, not
// a's own path written relative or absolute ("src/a.py", "/repo/src/a.py").
// Once the session's root is known, paths under it are relative already:
// an absolute path left is outside the repository, another file even when
// it ends with the relative one ("/work/repo2/lib/x.ex" beside "lib/x.ex"
// under /work/repo).
func (s *Scanner) sameNameElsewhere(a, b string) bool {
	if a == b || a[strings.LastIndexByte(a, '/')+1:] != b[strings.LastIndexByte(b, '/')+1:] {
		return false
	}
	if s.root != "" && strings.HasPrefix(a, "/") != strings.HasPrefix(b, "/") {
		return true
	}
	return !strings.HasSuffix(a, "/"+b) && !strings.HasSuffix(b, "/"+a)
}

// Moved reports a group that holds a file the session moved: its old and
// new name.
func (s *Scanner) Moved(group []string) bool {
	in := map[string]bool{}
	for _, p := range group {
		in[p] = true
	}
	for _, r := range s.renames {
		if in[r[0]] && in[r[1]] {
			return true
		}
	}
	return false
}
