package llm

// Waiting is the number of calls waiting for an identical request in
// flight.
func (c *Client) Waiting() int {
	c.flights.mu.Lock()
	defer c.flights.mu.Unlock()
	return c.flights.waiting
}
