// Package tracker turns the business API's public submissions into issues
// of an issue tracker speaking the GitLab REST v4 API (spec
// §4.4): use cases (JSON), feedback with up to five screenshots
// (multipart, images uploaded first and embedded as markdown) and single
// file uploads, plus the list of submitted use cases. It also holds the
// two guards of those public writes: the optional ALTCHA proof of work
// and the bearer key of the media aggregator search (§7.8).
//
// Without a base URL, token and project path every tracker route answers
// 503 ISSUE_TRACKER_NOT_CONFIGURED; a tracker that answers non-2xx is 502
// ISSUE_TRACKER_ERROR, one that cannot be reached 502
// ISSUE_TRACKER_UNREACHABLE.
//
//	t := tracker.New(tracker.Config{BaseURL: "https://gitlab.example.nl", Token: tok, ProjectPath: "group/project"})
//	t.Routes(router, writeLimiter) // /v1/public/use-case, /use-cases, /feedback, /upload-file, /altcha/challenge
package tracker
