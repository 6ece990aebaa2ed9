package auth

import (
	"context"
	"slices"
	"strings"

	"github.com/golang-jwt/jwt/v5"
)

// Roles the business API knows (realm roles of the identity provider).
const (
	RoleCitizen      = "citizen"
	RoleCaseworker   = "caseworker"
	RoleHRMedewerker = "hr-medewerker"
	RoleAdmin        = "admin"
)

// Principal is the authenticated caller, read from a verified token.
type Principal struct {
	UserID           string   // sub
	Tenant           string   // municipality; empty on machine tokens
	OrganisationType string   // organisation_type: municipality, province, national
	Roles            []string // realm_access.roles; never nil
	LoA              string   // loa as sent; compare with MeetsLoA
	BSN              string   // citizen number, national citizen login only; never log it
	EmployeeID       string   // employeeId
	Name             string
	GivenName        string // given_name, else name split at the first space
	FamilyName       string // family_name, else the rest of name after the first space
	Username         string // preferred_username
	Email            string
	Mandate          any    // mandate, passed through unused
	Client           string // azp: the client the token was issued to
}

// HasRole reports whether the principal holds any of roles.
func (p *Principal) HasRole(roles ...string) bool {
	for _, r := range roles {
		if slices.Contains(p.Roles, r) {
			return true
		}
	}
	return false
}

// IsCitizen reports whether the caller is a citizen; everyone else,
// callers without roles included, is staff.
func (p *Principal) IsCitizen() bool { return p.HasRole(RoleCitizen) }

// claims is the token payload the business API reads.
type claims struct {
	jwt.RegisteredClaims
	PreferredUsername string `json:"preferred_username"`
	BSN               string `json:"bsn"`
	Municipality      string `json:"municipality"`
	OrganisationType  string `json:"organisation_type"`
	LoA               string `json:"loa"`
	AZP               string `json:"azp"`
	EmployeeID        string `json:"employeeId"`
	Name              string `json:"name"`
	GivenName         string `json:"given_name"`
	FamilyName        string `json:"family_name"`
	Email             string `json:"email"`
	Mandate           any    `json:"mandate"`
	RealmAccess       struct {
		Roles []string `json:"roles"`
	} `json:"realm_access"`
}

func (c *claims) principal() *Principal {
	p := &Principal{
		UserID:           c.Subject,
		Tenant:           c.Municipality,
		OrganisationType: c.OrganisationType,
		Roles:            c.RealmAccess.Roles,
		LoA:              c.LoA,
		BSN:              c.BSN,
		EmployeeID:       c.EmployeeID,
		Name:             c.Name,
		GivenName:        c.GivenName,
		FamilyName:       c.FamilyName,
		Username:         c.PreferredUsername,
		Email:            c.Email,
		Mandate:          c.Mandate,
		Client:           c.AZP,
	}
	if p.Roles == nil {
		p.Roles = []string{}
	}
	if p.GivenName == "" && p.FamilyName == "" {
		full := c.Name
		if full == "" {
			full = c.PreferredUsername
		}
		// "Jan van der Berg" → "Jan" / "van der Berg".
		given, family, _ := strings.Cut(strings.TrimSpace(full), " ")
		p.GivenName, p.FamilyName = given, strings.TrimSpace(family)
	}
	return p
}

type principalKey struct{}

// FromContext returns the principal that Guard stored for the request, or
// nil on routes without authentication.
func FromContext(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// WithPrincipal returns ctx carrying p, and records p in the Holder of ctx
// if there is one.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	if h := HolderFrom(ctx); h != nil {
		h.Principal = p
	}
	return context.WithValue(ctx, principalKey{}, p)
}

// Holder lets a layer outside the router (the audit hook) learn the
// principal that a guard inside it set: the outer layer puts a Holder in the
// request context and reads it after the handler returns.
type Holder struct {
	Principal *Principal
}

type holderKey struct{}

// WithHolder returns ctx carrying a fresh Holder.
func WithHolder(ctx context.Context) (context.Context, *Holder) {
	h := &Holder{}
	return context.WithValue(ctx, holderKey{}, h), h
}

// HolderFrom returns the Holder of ctx, or nil.
func HolderFrom(ctx context.Context) *Holder {
	h, _ := ctx.Value(holderKey{}).(*Holder)
	return h
}
