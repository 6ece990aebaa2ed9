// Package edocstest serves a fake OpenText eDOCS DM REST API for tests, in
// the shape a live server accepted: a /connect login
// answering session cookies, an X-DM-DST header and cookie required on every
// other call, ?library= on every call, workspace look-up by a DOCNAME LIKE
// filter, multipart uploads (206 with an error list when rejected), and the
// {ERROR:{message, rapi_code, rapi_details}} error body.
//
// Tests steer it: expire every session, make a route fail with a status,
// refuse workspace creation (as live eDOCS did), and inspect the calls, the
// logins and the stored documents:
//
//	srv := edocstest.New(t)
//	client, _ := docmgmt.NewLive(docmgmt.LiveConfig{BaseURL: srv.BaseURL,
//		Library: edocstest.Library, UserID: edocstest.UserID, Password: edocstest.Password})
package edocstest
