package judges

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/compact-eval/compact-eval/providers"

	openai "github.com/sashabaranov/go-openai"

	"github.com/compact-eval/compact-eval/internal/clip"
	"github.com/compact-eval/compact-eval/internal/llm"
)

var (
	//go:embed prompts/invariant.txt
	invariantPrompt string
	//go:embed prompts/answer.txt
	answerPrompt string
)

// Prompt returns the system prompt of a request kind and its digest
// ("sha256:…", over the system prompt and the layout of the user message,
// which UserMessage writes), recorded as Call.PromptDigest.
func Prompt(kind string) (system, digest string) {
	system = invariantPrompt
	if kind == KindAnswer {
		system = answerPrompt
	}
	h := sha256.Sum256([]byte(userLayout + "\x00" + system))
	return system, "sha256:" + hex.EncodeToString(h[:])
}

// userLayout names the version of UserMessage's layout; change it when the
// layout changes, so that prompt digests change with it.
const userLayout = "compact-eval judge user message v1"

// UserMessage renders a request as the user message of an openai: judge.
func UserMessage(req *Request) string {
	var b strings.Builder
	if req.Kind == KindAnswer {
		p := req.Probe
		if p == nil {
			p = &Probe{}
		}
		fmt.Fprintf(&b, "Question:\n%s\n\nExpected answer:\n%s\n", p.Question, p.Expected)
		if len(p.Rubric) > 0 {
			b.WriteString("\nRubric:\n")
			for _, r := range p.Rubric {
				fmt.Fprintf(&b, "- %s\n", r)
			}
		}
		answer := ""
		if req.Answer != nil {
			answer = *req.Answer
		}
		fmt.Fprintf(&b, "\nThe agent's answer:\n%s\n", answer)
		return b.String()
	}
	f := req.Invariant
	if f == nil {
		f = &Fact{}
	}
	fmt.Fprintf(&b, "The fact (%s):\n%s\n", strings.ReplaceAll(f.Type, "_", " "), f.Statement)
	if len(f.Events) > 0 {
		b.WriteString("\nThe session events it comes from:\n")
		for _, e := range f.Events {
			fmt.Fprintf(&b, "#%d (%s): %s\n", e.Seq, e.Role, e.Text)
		}
	}
	fmt.Fprintf(&b, "\nThe summary:\n%s\n", req.Summary)
	return b.String()
}

// JudgeModes are the output modes an openai: judge tries, in order.
var JudgeModes = []string{llm.ModeJSONSchema, llm.ModeJSONObject, llm.ModeText}

// OpenAI is a judge backed by an OpenAI-compatible endpoint, through the
// same client as openai: summarizers and agents (cache, retries, rate
// limits, provenance). Unless the options set a temperature, it asks for
// temperature 0: a judge should give the same verdict on the same input.
// A reply that is not a usable verdict (ParseVerdict), or a refusal, is an
// error for that judgement and is not cached, so a rerun asks again; there
// is no correction round.
type OpenAI struct {
	model  string
	opts   providers.OpenAIOptions
	client *llm.Client
}

// NewOpenAI returns an openai: judge for model.
func NewOpenAI(model string, opts providers.OpenAIOptions) (*OpenAI, error) {
	if strings.TrimSpace(model) == "" {
		return nil, errors.New("openai judge: missing model name (want openai:MODEL)")
	}
	if opts.Temperature == nil {
		zero := float32(0)
		opts.Temperature = &zero
	}
	opts = opts.WithMaxTokens(providers.DefaultJudgeMaxTokens)
	c, err := providers.NewOpenAIClient(opts)
	if err != nil {
		return nil, err
	}
	return &OpenAI{model: model, opts: opts, client: c}, nil
}

// Client is the judge's model client (its counters say how many requests
// it sent).
func (j *OpenAI) Client() *llm.Client { return j.client }

// Judge asks the model.
func (j *OpenAI) Judge(ctx context.Context, req *Request) (*Verdict, error) {
	system, digest := Prompt(req.Kind)
	msgs := []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: system},
		{Role: openai.ChatMessageRoleUser, Content: UserMessage(req)},
	}
	accept := func(r *openai.ChatCompletionResponse) error {
		_, err := verdictFromReply(r, req)
		return err
	}
	build := func(mode string) *llm.Request {
		cr := openai.ChatCompletionRequest{Model: j.model, Messages: msgs}
		j.opts.Apply(&cr)
		cr.ResponseFormat = responseFormat(mode, req.Kind)
		return &llm.Request{Chat: cr, Accept: accept}
	}
	out, err := j.client.ChatStructured(ctx, j.model, JudgeModes, build)
	v := &Verdict{}
	j.opts.Provenance(&v.Call, j.model, j.client.Host(), out)
	v.Call.PromptDigest = digest
	if err != nil {
		return v, fmt.Errorf("openai judge %s: %w", j.model, err)
	}
	got, err := verdictFromReply(&out.Response, req)
	if err != nil {
		return v, fmt.Errorf("openai judge %s: %w", j.model, err)
	}
	got.Call = v.Call
	got.Call.CacheHit = out.CacheHit
	return got, nil
}

func verdictFromReply(r *openai.ChatCompletionResponse, req *Request) (*Verdict, error) {
	if len(r.Choices) == 0 {
		return nil, errors.New("the reply has no choices")
	}
	m := r.Choices[0].Message
	if m.Refusal != "" {
		return nil, fmt.Errorf("the judge refused: %s", clip.String(m.Refusal, 200))
	}
	obj, err := providers.FirstJSONObject(m.Content)
	if err != nil {
		return nil, fmt.Errorf("the reply is not a JSON object: %w", err)
	}
	return ParseVerdict(obj, req)
}

func responseFormat(mode, kind string) *openai.ChatCompletionResponseFormat {
	switch mode {
	case llm.ModeJSONSchema:
		schema := map[string]any{
			"type": "object",
			"properties": map[string]any{
				"verdict": map[string]any{"type": "string", "enum": Verdicts(kind)},
				"quote":   map[string]any{"type": "string"},
				"reason":  map[string]any{"type": "string"},
			},
			"required":             []string{"verdict", "quote", "reason"},
			"additionalProperties": false,
		}
		b, _ := json.Marshal(schema)
		return &openai.ChatCompletionResponseFormat{
			Type:       openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: "judge_verdict", Strict: true, Schema: json.RawMessage(b)},
		}
	case llm.ModeJSONObject:
		return &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	return nil
}
