package result

import "time"

// Call is the provenance of one call to a summarizer, an agent or a judge.
// It never holds an API key.
type Call struct {
	Spec         string            `json:"spec"`
	Model        string            `json:"model,omitempty"`
	Endpoint     string            `json:"endpoint,omitempty"` // host only
	Params       map[string]any    `json:"params,omitempty"`
	PromptDigest string            `json:"prompt_digest,omitempty"`
	OutputMode   string            `json:"output_mode,omitempty"`
	Latency      time.Duration     `json:"latency_ns"`
	Usage        Usage             `json:"usage"`
	Retries      int               `json:"retries,omitempty"`
	CacheHit     bool              `json:"cache_hit,omitempty"`
	Stderr       string            `json:"stderr,omitempty"`
	Extra        map[string]string `json:"extra,omitempty"`
}

// Usage is token usage as reported by a model endpoint.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens,omitempty"`
	CompletionTokens int `json:"completion_tokens,omitempty"`
}

// Pos is a position in a scenario file, 1-based. The
// zero Pos means "unknown" (for example an event produced by
// filler expansion has the position of its filler entry).
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}
