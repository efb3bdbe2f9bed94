package importer

import "encoding/json"

type anthropicMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// anthropicContent adds the events of one Anthropic message.
func (b *builder) anthropicContent(role string, raw json.RawMessage) error {
	c, err := parseContent(raw)
	if err != nil {
		return err
	}
	return b.addContent(role, c)
}
