package llmtest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/compact-eval/compact-eval/internal/testkit/llmtest"
)

type answer struct {
	Status     int
	RetryAfter string
	Content    string
	Error      string
}

func post(t *testing.T, url, body string) answer {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	json.Unmarshal(b, &v)
	a := answer{Status: resp.StatusCode, RetryAfter: resp.Header.Get("Retry-After"), Error: v.Error.Message}
	if len(v.Choices) > 0 {
		a.Content = v.Choices[0].Message.Content
	}
	return a
}

func TestServerScript(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("one"), llmtest.TooMany("2"), llmtest.Status(500, "boom"))
	srv.RejectFormats("json_schema")
	const chat = `{"model":"m","messages":[{"role":"user","content":"hi"}]}`
	const schema = `{"model":"m","messages":[],"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":{},"strict":true}}}`
	got := []answer{
		post(t, srv.URL+"/v1/chat/completions", chat),
		post(t, srv.URL+"/v1/chat/completions", schema), // refused, the script is not consumed
		post(t, srv.URL+"/chat/completions", chat),
		post(t, srv.URL+"/v1/chat/completions", chat),
		post(t, srv.URL+"/v1/chat/completions", chat), // script exhausted
		post(t, srv.URL+"/v1/models", chat),           // no such route: not counted
		post(t, srv.URL+"/v1/chat/completions", "not json"),
	}
	want := []answer{
		{Status: 200, Content: "one"},
		{Status: 400, Error: `response_format type "json_schema" is not supported by this model`},
		{Status: 429, RetryAfter: "2", Error: "rate limit reached"},
		{Status: 500, Error: "boom"},
		{Status: 500, Error: "llmtest: script exhausted"},
		{Status: 404, Error: "no route POST /v1/models"},
		{Status: 400, Error: "body is not a chat request: invalid character 'o' in literal null (expecting 'u')"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if srv.Count() != 5 {
		t.Errorf("Count = %d, want 5", srv.Count())
	}
	if reqs := srv.Requests(); len(reqs) != 5 || reqs[0].Messages("user")[0] != "hi" || reqs[2].Path != "/chat/completions" {
		t.Errorf("recorded requests = %+v", reqs)
	}
}

func TestServerDefaultAndDelay(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Content: "slow", Delay: 30 * time.Millisecond})
	srv.SetDefault(func(r llmtest.Request) llmtest.Reply { return llmtest.Text("echo " + r.Chat.Model) })
	start := time.Now()
	a := post(t, srv.BaseURL()+"/chat/completions", `{"model":"m1","messages":[]}`)
	if a.Content != "slow" || time.Since(start) < 30*time.Millisecond {
		t.Errorf("delayed reply = %+v after %v", a, time.Since(start))
	}
	if a := post(t, srv.BaseURL()+"/chat/completions", `{"model":"m2","messages":[]}`); a.Content != "echo m2" {
		t.Errorf("default reply = %+v", a)
	}
}
