package docworker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"

	"github.com/beevik/etree"

	"github.com/regelkit/regelkit/docmgmt"
	"github.com/regelkit/regelkit/engine"
)

// Topics served.
const (
	TopicWorkspace = "rip-edocs-workspace"
	TopicDocument  = "rip-edocs-document"
)

// ErrorCodeUnavailable is the BPMN error thrown by a workspace task whose
// retries are used up.
const ErrorCodeUnavailable = "DOCMGMT_UNAVAILABLE"

// Variables read and written.
const (
	VarProjectNumber = "projectNumber"
	VarProjectName   = "projectName"
	VarWorkspaceID   = "docmgmtWorkspaceId"
	VarWorkspaceName = "docmgmtWorkspaceName"
	VarTemplateID    = "documentTemplateId" // input parameter of a document task
	VarTaskWorkspace = "workspaceId"        // input parameter of a document task
)

// Options configure a Worker. Zero fields take the defaults named.
type Options struct {
	Engine engine.Processes // required
	Docs   docmgmt.Client   // required
	// WorkerID identifies the worker's locks; "regelkit-docworker".
	WorkerID string
	// MaxTasks are locked per fetch; 10.
	MaxTasks int
	// LockDuration is the lock of a fetched task; 2 minutes.
	LockDuration time.Duration
	// PollInterval is the wait after a fetch that found nothing or failed; 1 s.
	PollInterval time.Duration
	// Retries a task gets on its first failure is Retries-1; 3.
	Retries int
	// RetryTimeout is the back-off after the first failure, doubled after
	// each further one, at most MaxRetryTimeout; 10 s.
	RetryTimeout time.Duration
	// MaxRetryTimeout caps the back-off; 10 minutes.
	MaxRetryTimeout time.Duration
	// CallTimeout bounds each engine or document-system call; 30 s.
	CallTimeout time.Duration
	// Department is the profile field UV_AFD_NAAM of filed documents;
	// "Realisatie Infrastructuur".
	Department string
	// AppID is the profile field APP_ID of filed documents; "DEFAULT".
	AppID string
	// Logger receives one line per handled task (ids and topic, never
	// variable values); nil discards.
	Logger *slog.Logger
}

// Worker fetches and handles the document tasks.
type Worker struct {
	o Options
}

// New returns a worker with o's defaults filled in.
func New(o Options) *Worker {
	if o.WorkerID == "" {
		o.WorkerID = "regelkit-docworker"
	}
	if o.MaxTasks <= 0 {
		o.MaxTasks = 10
	}
	if o.LockDuration <= 0 {
		o.LockDuration = 2 * time.Minute
	}
	if o.PollInterval <= 0 {
		o.PollInterval = time.Second
	}
	if o.Retries <= 0 {
		o.Retries = 3
	}
	if o.RetryTimeout <= 0 {
		o.RetryTimeout = 10 * time.Second
	}
	if o.MaxRetryTimeout <= 0 {
		o.MaxRetryTimeout = 10 * time.Minute
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 30 * time.Second
	}
	if o.Department == "" {
		o.Department = "Realisatie Infrastructuur"
	}
	if o.AppID == "" {
		o.AppID = "DEFAULT"
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Worker{o: o}
}

// Run polls until ctx is done, then returns nil. A fetch that found tasks
// is followed at once by the next; an empty or failed one waits
// PollInterval.
func (w *Worker) Run(ctx context.Context) error {
	for {
		n, err := w.Poll(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			w.o.Logger.WarnContext(ctx, "document worker: fetch failed", "error", err.Error())
		}
		if n > 0 && err == nil {
			continue
		}
		t := time.NewTimer(w.o.PollInterval)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

// Poll fetches one batch of tasks and handles each; it returns how many it
// fetched. Handling failures are reported to the engine, not returned.
func (w *Worker) Poll(ctx context.Context) (int, error) {
	fctx, cancel := context.WithTimeout(ctx, w.o.CallTimeout)
	tasks, err := w.o.Engine.FetchAndLock(fctx, engine.FetchAndLock{
		WorkerID: w.o.WorkerID, MaxTasks: w.o.MaxTasks,
		Topics: []engine.FetchTopic{
			{TopicName: TopicWorkspace, LockDuration: w.o.LockDuration},
			{TopicName: TopicDocument, LockDuration: w.o.LockDuration},
		},
	})
	cancel()
	if err != nil {
		return 0, err
	}
	for _, t := range tasks {
		if ctx.Err() != nil {
			// The locks expire and another worker (or this one, later)
			// fetches the rest.
			return len(tasks), nil
		}
		w.handle(ctx, t)
	}
	return len(tasks), nil
}

// permanent marks a failure that retrying cannot fix.
type permanent struct{ err error }

func (p *permanent) Error() string { return p.err.Error() }
func (p *permanent) Unwrap() error { return p.err }

func (w *Worker) handle(ctx context.Context, t engine.LockedExternalTask) {
	var (
		vars engine.Variables
		err  error
	)
	switch t.TopicName {
	case TopicWorkspace:
		vars, err = w.workspace(ctx, t)
	case TopicDocument:
		vars, err = w.document(ctx, t)
	default:
		err = &permanent{fmt.Errorf("topic %q is not served by this worker", t.TopicName)}
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.o.CallTimeout)
	defer cancel()
	log := w.o.Logger.With("task", t.ID, "topic", t.TopicName, "process_instance", t.ProcessInstanceID)
	if err == nil {
		if cerr := w.o.Engine.CompleteExternalTask(cctx, t.ID, engine.CompleteExternalTask{WorkerID: w.o.WorkerID, Variables: vars}); cerr != nil {
			log.WarnContext(ctx, "document worker: completing the task failed", "error", cerr.Error())
			return
		}
		log.InfoContext(ctx, "document worker: task completed")
		return
	}
	current := w.o.Retries
	if t.Retries != nil {
		current = *t.Retries
	}
	next := current - 1
	var p *permanent
	if errors.As(err, &p) {
		next = 0
	}
	next = max(next, 0)
	if next == 0 && t.TopicName == TopicWorkspace {
		// The example process catches this and falls back to creating the
		// workspace by hand.
		berr := w.o.Engine.ExternalTaskBPMNError(cctx, t.ID, engine.ExternalTaskBPMNError{
			WorkerID: w.o.WorkerID, ErrorCode: ErrorCodeUnavailable, ErrorMessage: clip(err.Error()),
		})
		if berr != nil {
			log.WarnContext(ctx, "document worker: throwing the BPMN error failed", "error", berr.Error())
		}
		log.WarnContext(ctx, "document worker: workspace not created; BPMN error thrown", "error", clip(err.Error()))
		return
	}
	backoff := w.backoff(w.o.Retries - current)
	ferr := w.o.Engine.ExternalTaskFailure(cctx, t.ID, engine.ExternalTaskFailure{
		WorkerID: w.o.WorkerID, ErrorMessage: clip(err.Error()), Retries: next, RetryTimeout: backoff,
	})
	if ferr != nil {
		log.WarnContext(ctx, "document worker: reporting the failure failed", "error", ferr.Error())
	}
	log.WarnContext(ctx, "document worker: task failed", "retries", next, "retry_in", backoff.String(), "error", clip(err.Error()))
}

// backoff is the retry timeout after failure number n (0-based).
func (w *Worker) backoff(n int) time.Duration {
	d := w.o.RetryTimeout
	for i := 0; i < n && d < w.o.MaxRetryTimeout; i++ {
		d *= 2
	}
	return min(d, w.o.MaxRetryTimeout)
}

// clip keeps error messages short: they are stored on the task.
func clip(s string) string {
	if len(s) <= 500 {
		return s
	}
	return strings.ToValidUTF8(s[:500], "") + "…"
}

func stringVar(vars engine.Variables, name string) string {
	v, ok := vars[name]
	if !ok {
		return ""
	}
	s, _ := v.Plain().(string)
	return strings.TrimSpace(s)
}

func (w *Worker) call(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, w.o.CallTimeout)
}

// classify makes a refused request permanent; everything else is retried.
func classify(err error) error {
	var re *docmgmt.RequestError
	if errors.As(err, &re) {
		return &permanent{err}
	}
	return err
}

func (w *Worker) workspace(ctx context.Context, t engine.LockedExternalTask) (engine.Variables, error) {
	number, name := stringVar(t.Variables, VarProjectNumber), stringVar(t.Variables, VarProjectName)
	if number == "" || name == "" {
		return nil, &permanent{errors.New("the variables projectNumber and projectName are required")}
	}
	cctx, cancel := w.call(ctx)
	defer cancel()
	ws, err := w.o.Docs.EnsureWorkspace(cctx, docmgmt.EnsureWorkspaceRequest{ProjectNumber: number, ProjectName: name})
	if err != nil {
		return nil, classify(err)
	}
	return engine.Variables{VarWorkspaceID: engine.String(ws.ID), VarWorkspaceName: engine.String(ws.Name)}, nil
}

func (w *Worker) document(ctx context.Context, t engine.LockedExternalTask) (engine.Variables, error) {
	id := stringVar(t.Variables, VarTemplateID)
	workspace := stringVar(t.Variables, VarTaskWorkspace)
	if id == "" {
		// An engine that does not hand over the task's input parameters:
		// read them from the BPMN.
		var err error
		if id, workspace, err = w.inputs(ctx, t); err != nil {
			return nil, err
		}
	}
	if id == "" {
		return nil, &permanent{errors.New("the input documentTemplateId is required")}
	}
	data, err := w.template(ctx, t.ProcessDefinitionID, id)
	if err != nil {
		return nil, err
	}
	doc, err := Render(data, t.Variables)
	if err != nil {
		return nil, &permanent{fmt.Errorf("template %s: %w", id, err)}
	}
	cctx, cancel := w.call(ctx)
	defer cancel()
	up, err := w.o.Docs.Upload(cctx, docmgmt.UploadRequest{
		WorkspaceID: workspace, Filename: id + ".txt", Content: doc.Text,
		DocName: doc.Name, AppID: w.o.AppID, Department: w.o.Department,
	})
	if err != nil {
		return nil, classify(err)
	}
	return engine.Variables{
		variableName(id, "DocumentId"):     engine.String(up.DocumentID),
		variableName(id, "DocumentNumber"): engine.String(up.DocumentNumber),
	}, nil
}

// template reads <id>.document from the deployment of the task's process
// definition: templates resolve only inside their own deployment.
func (w *Worker) template(ctx context.Context, definitionID, id string) ([]byte, error) {
	cctx, cancel := w.call(ctx)
	defer cancel()
	def, err := w.o.Engine.ProcessDefinition(cctx, definitionID)
	if err != nil {
		return nil, err
	}
	res, err := w.o.Engine.DeploymentResources(cctx, def.DeploymentID)
	if err != nil {
		return nil, err
	}
	want := id + ".document"
	for _, r := range res {
		if r.Name == want || strings.HasSuffix(r.Name, "/"+want) {
			data, err := w.o.Engine.DeploymentResourceData(cctx, def.DeploymentID, r.ID)
			if err != nil {
				return nil, err
			}
			return data, nil
		}
	}
	return nil, &permanent{fmt.Errorf("template %s.document is not in the deployment of %s", id, definitionID)}
}

// inputs reads the documentTemplateId and workspaceId input parameters of
// the task's activity from the BPMN: a literal is taken as is, a plain
// ${name} from the instance's variables.
func (w *Worker) inputs(ctx context.Context, t engine.LockedExternalTask) (templateID, workspace string, err error) {
	cctx, cancel := w.call(ctx)
	defer cancel()
	xml, err := w.o.Engine.ProcessDefinitionXML(cctx, t.ProcessDefinitionID)
	if err != nil {
		return "", "", err
	}
	params, err := inputParameters(xml, t.ActivityID)
	if err != nil {
		return "", "", &permanent{err}
	}
	resolve := func(v string) string {
		if m := simpleExpr.FindStringSubmatch(v); m != nil {
			return stringVar(t.Variables, m[1])
		}
		return v
	}
	return resolve(params[VarTemplateID]), resolve(params[VarTaskWorkspace]), nil
}

var simpleExpr = regexp.MustCompile(`^\$\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}$`)

// inputParameters are the camunda:inputParameter texts of the element with
// the id, found by namespace.
func inputParameters(xml, activityID string) (map[string]string, error) {
	if len(xml) > maxBPMNBytes {
		return nil, fmt.Errorf("BPMN larger than %d bytes", maxBPMNBytes)
	}
	doc := etree.NewDocument()
	if err := doc.ReadFromString(xml); err != nil {
		return nil, err
	}
	out := map[string]string{}
	if doc.Root() == nil {
		return out, nil
	}
	stack := []*etree.Element{doc.Root()}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.SelectAttrValue("id", "") != activityID || e.NamespaceURI() != bpmnNS {
			stack = append(stack, e.ChildElements()...)
			continue
		}
		for _, ext := range e.ChildElements() {
			for _, io := range ext.ChildElements() {
				if io.Tag != "inputOutput" || io.NamespaceURI() != camundaNS {
					continue
				}
				for _, in := range io.ChildElements() {
					if in.Tag == "inputParameter" && in.NamespaceURI() == camundaNS {
						out[in.SelectAttrValue("name", "")] = strings.TrimSpace(in.Text())
					}
				}
			}
		}
		return out, nil
	}
	return out, nil
}

const (
	bpmnNS       = "http://www.omg.org/spec/BPMN/20100524/MODEL"
	camundaNS    = "http://camunda.org/schema/1.0/bpmn"
	maxBPMNBytes = 16 << 20
)
