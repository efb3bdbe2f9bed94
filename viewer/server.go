package viewer

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/compact-eval/compact-eval/internal/redact"
	"github.com/compact-eval/compact-eval/reports"
)

//go:embed assets
var assets embed.FS

var pages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("pages").Funcs(funcs).ParseFS(assets, "assets/*.tmpl"))
})

// Server is the viewer's web site over a Store. It answers GET and HEAD
// only and never writes a file.
type Server struct {
	store *Store
	mux   *http.ServeMux
	units unitState
}

// New returns the site over the run folders under roots.
func New(roots []string) *Server {
	s := &Server{store: NewStore(roots), mux: http.NewServeMux()}
	static, _ := fs.Sub(assets, "assets")
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	s.mux.HandleFunc("GET /{$}", s.runsPage)
	s.mux.HandleFunc("GET /runs/rows", s.runsRows)
	s.mux.HandleFunc("GET /trends", s.trendsPage)
	s.mux.HandleFunc("GET /diff", s.diffPage)
	s.mux.HandleFunc("GET /run/{root}/{name}", s.gridPage)
	s.mux.HandleFunc("GET /run/{root}/{name}/report", s.runPage)
	s.mux.HandleFunc("GET /run/{root}/{name}/report.csv", s.runCSV)
	s.mux.HandleFunc("GET /run/{root}/{name}/units.csv", s.unitsCSV)
	s.mux.HandleFunc("GET /run/{root}/{name}/unit/{anchor}", s.unitPage)
	s.mux.HandleFunc("GET /run/{root}/{name}/unit/{anchor}/events", s.eventsPage)
	return s
}

// Store is the store the site reads.
func (s *Server) Store() *Store { return s.store }

// ServeHTTP answers GET and HEAD; anything else is 405, since the viewer
// is read-only. Every response is sent through the key scrubber, as every
// writer's output is.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "the viewer is read-only", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; img-src 'self' data:")
	s.mux.ServeHTTP(w, r)
}

// page renders the template name with data, as a whole page or a fragment,
// its control characters shown escaped (reports.EscapeControls), as every
// HTML page of the viewer.
func (s *Server) page(w http.ResponseWriter, name string, data any) {
	var b bytes.Buffer
	if err := pages().ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, "rendering "+name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(reports.EscapeControls(scrub(b.Bytes())))
}

// scrub removes API keys of the environment from a response (results are
// redacted when written; an error message may still quote one).
func scrub(b []byte) []byte {
	if k := redact.Keys(); k != nil {
		return []byte(k.String(string(b)))
	}
	return b
}

// runID is the run named by a request's path.
func runID(r *http.Request) string { return r.PathValue("root") + "/" + r.PathValue("name") }

// runURL is the path of a run's page.
func runURL(id string) string {
	root, name, _ := strings.Cut(id, "/")
	return "/run/" + url.PathEscape(root) + "/" + url.PathEscape(name)
}

// problem is a page that says what went wrong, with its status.
func (s *Server) problem(w http.ResponseWriter, status int, title, msg string) {
	w.WriteHeader(status)
	s.page(w, "problem", map[string]any{"Title": title, "Message": msg, "Nav": ""})
}

// runPage is the run's HTML report (report --format html), with a bar
// back to the site: decoded and rendered in full, so on a run of many
// thousand units it takes seconds; the grid and the unit pages are the
// paginated views of a run.
func (s *Server) runPage(w http.ResponseWriter, r *http.Request) {
	id := runID(r)
	run, res, err := s.store.Result(id)
	if err != nil {
		status := http.StatusNotFound
		if run != nil {
			status = http.StatusConflict
		}
		s.problem(w, status, "run "+id, err.Error())
		return
	}
	var b bytes.Buffer
	if err := reports.WriteHTML(&b, res, reports.Options{}); err != nil {
		s.problem(w, http.StatusInternalServerError, "run "+id, err.Error())
		return
	}
	bar := fmt.Sprintf(`<nav class="viewer-bar" style="font:14px system-ui,sans-serif;padding:6px 24px;background:#263238;color:#fff"><a style="color:#fff" href="/">← runs</a> · <a style="color:#fff" href="%s">grid</a> · <a style="color:#fff" href="/trends">trends</a> · <a style="color:#fff" href="/diff?run=%s">head-to-head</a> · <a style="color:#fff" href="%s/report.csv">CSV</a> · <span>%s</span></nav>`,
		runURL(id), template.URLQueryEscaper(id), runURL(id), template.HTMLEscapeString(run.Dir))
	page := bytes.Replace(b.Bytes(), []byte("<body>\n"), []byte("<body>\n"+bar+"\n"), 1)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(reports.EscapeControls(scrub(page)))
}

// runCSV is the run's outcomes as CSV (report --format csv).
func (s *Server) runCSV(w http.ResponseWriter, r *http.Request) {
	id := runID(r)
	run, res, err := s.store.Result(id)
	if err != nil {
		status := http.StatusNotFound
		if run != nil {
			status = http.StatusConflict
		}
		http.Error(w, err.Error(), status)
		return
	}
	var b bytes.Buffer
	if err := reports.Write(&b, res, "csv", reports.Options{}); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Write(scrub(b.Bytes()))
}
