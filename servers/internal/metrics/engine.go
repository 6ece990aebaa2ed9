package metrics

import (
	"context"
	"time"

	"github.com/regelkit/regelkit/engine"
)

// maxCountedInstances caps the running-instance gauge of an engine without
// a count of instances: the scrape lists them, at most this many, so a
// scrape of a busy remote engine stays one small request.
const maxCountedInstances = 1000

// instanceCounter is an engine that counts running instances itself
// (Operaton's GET /process-instance/count); preferred when there.
type instanceCounter interface {
	ProcessInstanceCount(ctx context.Context, q engine.ProcessInstanceQuery) (int, error)
}

// scrapeTimeout bounds each engine query a scrape makes.
const scrapeTimeout = 2 * time.Second

// Engine registers engine_process_instances_running and
// engine_tasks_open, read from eng at scrape time, when eng implements
// engine.Processes; otherwise the series are absent. A query that fails or
// takes longer than two seconds reports -1 for that scrape.
func (m *Metrics) Engine(eng any) {
	p, ok := eng.(engine.Processes)
	if !ok {
		return
	}
	counter, counts := eng.(instanceCounter)
	m.GaugeFunc("engine_process_instances_running",
		"Running process instances of the process engine (without a count from the engine at most 1000 are counted; -1: the engine did not answer).",
		func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
			defer cancel()
			if counts {
				n, err := counter.ProcessInstanceCount(ctx, engine.ProcessInstanceQuery{})
				if err != nil {
					return -1
				}
				return float64(n)
			}
			list, err := p.ProcessInstances(ctx, engine.ProcessInstanceQuery{MaxResults: maxCountedInstances})
			if err != nil {
				return -1
			}
			return float64(len(list))
		})
	m.GaugeFunc("engine_tasks_open",
		"Open user tasks of the process engine (-1: the engine did not answer).",
		func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
			defer cancel()
			n, err := p.TaskCount(ctx, engine.TaskQuery{})
			if err != nil {
				return -1
			}
			return float64(n)
		})
}
