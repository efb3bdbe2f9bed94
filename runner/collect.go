package runner

import (
	"github.com/compact-eval/compact-eval/result"
)

// batchWriter makes a batch of units durable at once (the journal).
type batchWriter interface {
	append(units []result.Unit) error
}

// collect journals the units of results as they come, with group commit:
// every unit already waiting joins the batch, and one write (one sync)
// makes them all durable. It returns the units run (abandoned ones are not
// counted) and the first write error; on that error it closes stop, so
// that no more units are scheduled, and drains the units in flight.
// progress, when set, is told how far the run is before the first unit
// and after each unit.
func collect(results <-chan result.Unit, w batchWriter, stop chan<- struct{}, progress func(Tally), total int) (ran int, err error) {
	t := Tally{Total: total}
	if progress != nil {
		progress(t)
	}
	for u := range results {
		batch := []result.Unit{u}
	more:
		for {
			select {
			case v, ok := <-results:
				if !ok {
					break more
				}
				batch = append(batch, v)
			default:
				break more
			}
		}
		if werr := w.append(batch); werr != nil && err == nil {
			err = werr
			close(stop)
		}
		for _, u := range batch {
			if u.Status != result.UnitAbandoned {
				ran++
			}
			if u.Status == result.UnitError {
				t.Errors++
			}
			t.Done = ran
			if progress != nil {
				progress(t)
			}
		}
	}
	return ran, err
}

// Tally is how far a run is, as Options.Progress is told after each unit.
type Tally struct {
	// Done is the units this process finished (abandoned ones are not
	// counted), Total the units it has to run (those a resumed journal
	// already holds are in neither).
	Done, Total int
	// Errors is how many of Done ended with status error.
	Errors int
}
