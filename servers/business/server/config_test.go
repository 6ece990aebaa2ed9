package server

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func configFrom(t *testing.T, env map[string]string) *config {
	t.Helper()
	cfg, _, err := loadConfig(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestConfigDefaultsNeedNoEnvironment(t *testing.T) {
	cfg := configFrom(t, nil)
	if _, err := cfg.validate(); err != nil {
		t.Fatalf("the embedded defaults must boot with no environment: %v", err)
	}
	if cfg.Environment != "development" || cfg.Port != 3002 || !cfg.devIdentity() || cfg.EngineURL != "" ||
		cfg.RateLimitMax != 1000 || cfg.RateLimitWindow.Milliseconds() != 60000 || cfg.JWTAudience != "ronl-business-api" {
		t.Errorf("defaults: %+v", cfg)
	}
}

func TestConfigAliasesAndEnvironment(t *testing.T) {
	for in, want := range map[string]string{"dev": "development", "acc": "acceptance", "Staging": "acceptance",
		"prod": "production", "production": "production", "test": "test", "qa": "qa"} {
		if got := configFrom(t, map[string]string{"NODE_ENV": in}).Environment; got != want {
			t.Errorf("NODE_ENV=%s → %s, want %s", in, got, want)
		}
	}
	cfg := configFrom(t, map[string]string{
		"KEYCLOAK_URL": "https://kc.example.nl", "KEYCLOAK_REALM": "r1",
		"OPERATON_BASE_URL": "https://op.example.nl/engine-rest", "OPERATON_TIMEOUT": "5000",
	})
	if cfg.IDPURL != "https://kc.example.nl" || cfg.IDPRealm != "r1" || cfg.JWTIssuer != "https://kc.example.nl/realms/r1" ||
		cfg.jwksURL() != "https://kc.example.nl/realms/r1/protocol/openid-connect/certs" ||
		cfg.EngineURL != "https://op.example.nl/engine-rest" || cfg.EngineTimeout.Milliseconds() != 5000 {
		t.Errorf("aliases: %+v", cfg)
	}
	// The project name wins over the alias.
	if got := configFrom(t, map[string]string{"IDP_URL": "https://a.example", "KEYCLOAK_URL": "https://b.example"}).IDPURL; got != "https://a.example" {
		t.Errorf("IDP_URL vs alias: %s", got)
	}
}

func TestPlaceholderDetectionIsAnchored(t *testing.T) {
	for _, v := range []string{"changeme", "CHANGE_ME", "change-this", "replace me", "your-api-key", "<secret>", "${DB_PASSWORD}",
		"xxxx", "***", "TODO", "secret", " password ", "example", "default", "test123", "placeholder", "dummy"} {
		if !isPlaceholder(v) {
			t.Errorf("%q must be refused as a placeholder", v)
		}
	}
	for _, v := range []string{"s3cr3t-Zq9!secret-Kf2", "my-example-key-7d1f", "xx", "passwordless-8f7e6d", "notdefault", "yourself9",
		"a<b>c", "sk-ant-api03-realkey"} {
		if isPlaceholder(v) {
			t.Errorf("%q is a real-looking secret and must pass (no substring matching)", v)
		}
	}
}

func TestBootCheckReportsEveryProblem(t *testing.T) {
	cfg := configFrom(t, map[string]string{
		"DEPLOYMENT_ENV": "production", "PROCESS_ENGINE_PASSWORD": "changeme", "OPENAI_API_KEY": "your-key",
		"DOCMGMT_STUB_MODE": "false", "DOCMGMT_ALLOW_SERVICE_FALLBACK": "true", "MCP_ENABLED": "true",
		"CORS_PREVIEW_SLUGS": "app",
	})
	warnings, err := cfg.validate()
	if err == nil {
		t.Fatal("production without database, engine or identity provider must not start")
	}
	for _, want := range []string{
		"DATABASE_URL must be set", "PROCESS_ENGINE_URL (a remote Operaton) or ENGINE_DATABASE_URL (the embedded engine on PostgreSQL) must be set", "IDP_URL must be set",
		"PROCESS_ENGINE_PASSWORD looks like a placeholder", "OPENAI_API_KEY looks like a placeholder",
		"DOCMGMT_BASE_URL is required", "ENTRA_CLIENT_SECRET is required", "DOCMGMT_ALLOW_SERVICE_FALLBACK=true is refused",
		"ANTHROPIC_API_KEY must be set",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("boot error lacks %q:\n%v", want, err)
		}
	}
	if len(warnings) == 0 || !strings.Contains(strings.Join(warnings, ";"), "CORS_PREVIEW_SLUGS is ignored") {
		t.Errorf("warnings: %v", warnings)
	}

	good := configFrom(t, map[string]string{
		"DEPLOYMENT_ENV": "production", "DATABASE_URL": "postgres://audit:Zk3-secret-9fQ@db.example.nl/audit_logs",
		"PROCESS_ENGINE_URL": "https://op.example.nl/engine-rest", "PROCESS_ENGINE_PASSWORD": "an-example-of-a-real-secret-42",
		"IDP_URL": "https://kc.example.nl", "CORS_ORIGIN": "https://mijn.example.nl",
	})
	if _, err := good.validate(); err != nil {
		t.Errorf("a production configuration with real secrets must start: %v", err)
	}
	embedded := configFrom(t, map[string]string{
		"DEPLOYMENT_ENV": "production", "DATABASE_URL": "postgres://audit:Zk3-secret-9fQ@db.example.nl/audit_logs",
		"ENGINE_DATABASE_URL": "postgres://engine:Qm7-secret-2xL@db.example.nl/engine",
		"IDP_URL":             "https://kc.example.nl", "CORS_ORIGIN": "https://mijn.example.nl",
	})
	if _, err := embedded.validate(); err != nil {
		t.Errorf("production with the embedded engine on PostgreSQL must start: %v", err)
	}
	if _, err := configFrom(t, map[string]string{
		"DEPLOYMENT_ENV": "production", "DATABASE_URL": "postgres://audit:Zk3-secret-9fQ@db.example.nl/audit_logs",
		"ENGINE_DATABASE_URL": "postgres://engine:changeme@db.example.nl/engine",
		"IDP_URL":             "https://kc.example.nl", "CORS_ORIGIN": "https://mijn.example.nl",
	}).validate(); err == nil || !strings.Contains(err.Error(), "ENGINE_DATABASE_URL password looks like a placeholder") {
		t.Errorf("a placeholder engine database password must be refused: %v", err)
	}
	bad := configFrom(t, map[string]string{
		"DEPLOYMENT_ENV": "production", "DATABASE_URL": "postgres://audit:password@db.example.nl/audit_logs",
		"PROCESS_ENGINE_URL": "https://op.example.nl/api", "IDP_URL": "https://kc.example.nl",
	})
	_, err = bad.validate()
	if err == nil || !strings.Contains(err.Error(), "DATABASE_URL password looks like a placeholder") ||
		!strings.Contains(err.Error(), "must end with /engine-rest") || strings.Contains(err.Error(), "password@") {
		t.Errorf("placeholder database password / engine path: %v", err)
	}
	// The same check on a key=value connection string (libpq's other form).
	dsn := configFrom(t, map[string]string{
		"DEPLOYMENT_ENV": "production", "DATABASE_URL": "host=db.example.nl dbname=audit_logs user=audit password=changeme",
		"PROCESS_ENGINE_URL": "https://op.example.nl/engine-rest", "IDP_URL": "https://kc.example.nl",
	})
	if _, err := dsn.validate(); err == nil || !strings.Contains(err.Error(), "DATABASE_URL password looks like a placeholder") ||
		strings.Contains(err.Error(), "changeme") {
		t.Errorf("placeholder password in a key=value DATABASE_URL: %v", err)
	}
	// Outside production a placeholder is not checked, but the development
	// identity still needs development.
	acc := configFrom(t, map[string]string{"DEPLOYMENT_ENV": "acceptance", "PROCESS_ENGINE_PASSWORD": "changeme"})
	if _, err := acc.validate(); err == nil || strings.Contains(err.Error(), "placeholder") || !strings.Contains(err.Error(), "IDP_URL") {
		t.Errorf("acceptance: %v", err)
	}
}

func TestTokenCommand(t *testing.T) {
	key := t.TempDir() + "/dev.pem"
	env := map[string]string{"DEV_IDENTITY_KEY_FILE": key}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	var out, errOut bytes.Buffer
	if err := TokenCommand([]string{"-role", "caseworker", "-municipality", "heusden"}, lookup, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	// A server started afterwards with the same environment accepts it.
	ta := newTestApp(t, env)
	tok := strings.TrimSpace(out.String())
	var data map[string]any
	ta.c.Post("/v1/decision/SVB_LeeftijdsInformatie/evaluate", leeftijdBody, bearer(tok)...).Data(t, 200, &data)

	out.Reset()
	if err := TokenCommand([]string{"-m2m", "-azp", "operaton-mcp-client"}, lookup, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	m2m := strings.TrimSpace(out.String())
	ta.c.Get("/v1/m2m/decision/SVB_LeeftijdsInformatie", bearer(m2m)...).Data(t, 200, nil)
	ta.c.Post("/v1/decision/SVB_LeeftijdsInformatie/evaluate", leeftijdBody, bearer(m2m)...).ExpectError(t, 403, "MISSING_TENANT")

	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{"DEPLOYMENT_ENV": "acceptance"}, []string{"-municipality", "x"}, "refused in acceptance"},
		{map[string]string{"DEPLOYMENT_ENV": "production"}, []string{"-municipality", "x"}, "refused in production"},
		{map[string]string{"IDP_URL": "https://kc.example.nl"}, []string{"-municipality", "x"}, "IDP_URL is set"},
		{nil, []string{"-m2m"}, "-azp"},
		{nil, nil, "-municipality is required"},
	} {
		e := map[string]string{"DEV_IDENTITY_KEY_FILE": key}
		for k, v := range tc.env {
			e[k] = v
		}
		err := TokenCommand(tc.args, func(k string) (string, bool) { v, ok := e[k]; return v, ok }, &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v %v: %v, want %q", tc.env, tc.args, err, tc.want)
		}
	}
}

func TestDevIdentityRefusedOutsideDevelopment(t *testing.T) {
	cfg := configFrom(t, map[string]string{"DEPLOYMENT_ENV": "acceptance"})
	if _, err := newApp(t.Context(), cfg, slog.New(slog.DiscardHandler)); err == nil || !strings.Contains(err.Error(), "refused in acceptance") {
		t.Errorf("newApp in acceptance without IDP_URL: %v", err)
	}
}

func TestConfigPublicContent(t *testing.T) {
	cfg := configFrom(t, nil)
	if cfg.NewsFeedURL != "" || cfg.KnowledgeGraphURL != "" || cfg.ProductsTenant != "flevoland" || cfg.IssueTrackerLabel != "uc::submitted" ||
		cfg.MediaAggregatorTTL.Milliseconds() != 900000 || cfg.IssueTrackerBaseURL != "" {
		t.Errorf("public defaults: %+v", cfg)
	}
	cfg = configFrom(t, map[string]string{
		"RONL_SPARQL_ENDPOINT": "https://kg.example/sparql", "GITLAB_BASE_URL": "https://gitlab.example",
		"GITLAB_PROJECT_PATH": "a/b", "GITLAB_UC_LABEL": "x", "MEDIA_AGGREGATOR_CACHE_TTL_MS": "-5",
		"PRODUCTS_TENANT": "voorbeeldland",
	})
	if cfg.KnowledgeGraphURL != "https://kg.example/sparql" || cfg.IssueTrackerBaseURL != "https://gitlab.example" ||
		cfg.IssueTrackerProject != "a/b" || cfg.IssueTrackerLabel != "x" || cfg.MediaAggregatorTTL.Milliseconds() != 900000 ||
		cfg.ProductsTenant != "voorbeeldland" {
		t.Errorf("public aliases: %+v", cfg)
	}
}
