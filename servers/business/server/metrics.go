package server

// instrument registers the business API's own series: the audit queue,
// read from the audit log's counters at scrape time, and the process
// engine's running instances and open tasks.
func (a *app) instrument() {
	a.metrics.GaugeFunc("audit_queue_depth", "Audit rows waiting to be written.",
		func() float64 { return float64(a.audit.stats().Queued) })
	a.metrics.CounterFunc("audit_dropped_total", "Audit rows refused because the queue was full or the log closed.",
		func() float64 { return float64(a.audit.stats().Dropped) })
	a.metrics.CounterFunc("audit_failed_total", "Audit rows given up after the database refused them or stayed away.",
		func() float64 { return float64(a.audit.stats().Failed) })
	a.metrics.Engine(a.engine)
}
