package providers

import (
	"strconv"

	"github.com/compact-eval/compact-eval/internal/llm"
)

// AnthropicTruncated is the error of a Messages API reply that stopped at
// the request's max_tokens (stop_reason "max_tokens"), nil for any other
// stop reason. A compaction or an answer cut there is not one.
func AnthropicTruncated(stopReason string, maxTokens int64) error {
	if stopReason != "max_tokens" {
		return nil
	}
	return &llm.Truncated{Field: "max_tokens", Limit: int(maxTokens), Reason: `stop_reason "max_tokens"`}
}

// ResponsesTruncated is the error of a Responses API reply that is
// incomplete because it reached max_output_tokens (status "incomplete",
// incomplete_details.reason "max_output_tokens"), nil otherwise.
func ResponsesTruncated(status, reason string, maxOutputTokens int) error {
	if status != "incomplete" || reason != "max_output_tokens" {
		return nil
	}
	return &llm.Truncated{Field: "max_output_tokens", Limit: maxOutputTokens,
		Reason: `status "incomplete", incomplete_details.reason ` + strconv.Quote(reason)}
}
