package scenarios

import (
	"fmt"
	"strings"
)

// The texts below are what filler events say. They read like the noise of a
// real session (lookups that find nothing interesting, green test runs,
// healthy dashboards), so that a summarizer has to tell the noise from the
// facts that matter, and a token trigger has real text to count.

var (
	fillerServices = []string{"billing", "checkout", "search", "ledger", "notify", "auth", "catalog", "media", "reports", "gateway", "ingest", "profile"}
	fillerRegions  = []string{"eu-west-1", "us-east-2", "ap-south-1", "eu-central-1", "us-west-2"}
	fillerWords    = []string{"cache", "queue", "worker", "index", "shard", "replica", "session", "batch", "export", "import"}
	fillerPkgs     = []string{"internal/httpx", "internal/retry", "pkg/ratelimit", "internal/feature", "pkg/metrics", "internal/queue", "pkg/auditlog", "internal/cron"}
	fillerFuncs    = []string{"NewClient", "parseHeader", "withBackoff", "flushBatch", "loadFlags", "Observe", "drainQueue", "scheduleNext", "encodeRow", "validateToken"}
	fillerTables   = []string{"orders", "invoices", "events_raw", "customers", "shipments", "page_views", "refunds", "subscriptions", "sessions_daily"}
	fillerPages    = []string{"/pricing", "/docs/getting-started", "/blog/2024/release-notes", "/status", "/careers", "/account/settings", "/search?q=export", "/changelog"}
	fillerSites    = []string{"shop.example.com", "docs.example.org", "status.example.net", "www.example.com", "help.example.io"}
	fillerPeople   = []string{"Priya", "Marco", "Jun", "Ana", "Tomasz", "Leila", "Sam", "Ingrid"}
)

func (g *gen) host() string {
	return fmt.Sprintf("%s-%s-%d.%s.internal", g.pick(fillerServices...), g.pick(fillerWords...), g.between(1, 24), g.pick(fillerRegions...))
}

func (g *gen) ip() string {
	return fmt.Sprintf("10.%d.%d.%d", g.between(0, 40), g.between(0, 254), g.between(2, 250))
}

func (g *gen) ms() string { return fmt.Sprintf("%.3f", float64(g.between(180, 48000))/1000) }

func (g *gen) lines(lo, hi int, line func(i int) string) string {
	n := g.between(lo, hi)
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line(i))
	}
	return b.String()
}

// ---- network ----

func (g *gen) networkTool() (string, map[string]any, string) {
	switch g.r.IntN(6) {
	case 0:
		h, ip := g.host(), g.ip()
		text := fmt.Sprintf("PING %s (%s) 56(84) bytes of data.\n", h, ip) +
			g.lines(3, 10, func(i int) string {
				return fmt.Sprintf("64 bytes from %s: icmp_seq=%d ttl=%d time=%s ms", ip, i+1, g.between(52, 64), g.ms())
			}) + fmt.Sprintf("\n--- %s ping statistics ---\npackets transmitted, 0%% packet loss", h)
		return "run_shell", map[string]any{"cmd": "ping -c 8 " + h}, text
	case 1:
		h := g.host()
		text := fmt.Sprintf(";; ANSWER SECTION:\n%s. %d IN A %s\n%s. %d IN A %s\n;; Query time: %d msec\n;; SERVER: 10.0.0.2#53(10.0.0.2)",
			h, g.between(30, 300), g.ip(), h, g.between(30, 300), g.ip(), g.between(1, 40))
		return "dns_lookup", map[string]any{"host": h, "type": "A"}, text
	case 2:
		h := g.host()
		text := fmt.Sprintf("traceroute to %s, 30 hops max, 60 byte packets\n", h) +
			g.lines(4, 10, func(i int) string {
				return fmt.Sprintf("%2d  %s  %s ms  %s ms  %s ms", i+1, g.ip(), g.ms(), g.ms(), g.ms())
			})
		return "run_shell", map[string]any{"cmd": "traceroute -n " + h}, text
	case 3:
		text := "State  Recv-Q Send-Q Local Address:Port  Peer Address:Port Process\n" +
			g.lines(3, 8, func(int) string {
				return fmt.Sprintf("LISTEN 0      %-6s 0.0.0.0:%-5d       0.0.0.0:*     users:((\"%s\",pid=%d,fd=%d))",
					g.pick("128", "511", "4096"), g.between(1024, 65000), g.pick(fillerServices...), g.between(300, 99999), g.between(3, 40))
			})
		return "run_shell", map[string]any{"cmd": "ss -tlnp", "host": g.host()}, text
	case 4:
		svc := g.pick(fillerServices...)
		text := "NAME                              READY   STATUS    RESTARTS   AGE\n" +
			g.lines(2, 12, func(int) string {
				return fmt.Sprintf("%s-%s-%s   1/1     Running   %d          %dd", svc, g.hex(9), g.hex(5), g.between(0, 3), g.between(1, 60))
			})
		return "kubectl", map[string]any{"args": "get pods -n " + svc + " -l app=" + svc}, text
	default:
		h := g.host()
		text := fmt.Sprintf("HTTP/1.1 200 OK\ncontent-type: application/json\nx-request-id: %s-%s\nserver: envoy\nx-envoy-upstream-service-time: %d\n\n{\"status\":\"ok\",\"uptime_s\":%d,\"build\":\"%s\"}",
			g.hex(8), g.hex(4), g.between(1, 90), g.between(1000, 9000000), g.hex(7))
		return "http_get", map[string]any{"url": "http://" + h + ":" + fmt.Sprint(g.between(8000, 9100)) + "/healthz"}, text
	}
}

var networkNotes = []func(*gen) string{
	func(g *gen) string {
		return fmt.Sprintf("Latency from the bastion to %s is steady around %s ms, nothing unusual there.", g.host(), g.ms())
	},
	func(g *gen) string {
		return fmt.Sprintf("The route goes through %d hops and none of them drops packets, so I will not dig further on that path.", g.between(4, 14))
	},
	func(g *gen) string {
		return fmt.Sprintf("%s answers on its health endpoint; the load balancer still lists %d healthy targets in %s.", g.host(), g.between(2, 9), g.pick(fillerRegions...))
	},
	func(g *gen) string {
		return fmt.Sprintf("DNS for the %s service returns two A records with a TTL of %d seconds, which matches what the runbook describes.", g.pick(fillerServices...), g.between(30, 300))
	},
	func(g *gen) string {
		return fmt.Sprintf("Side note: the %s pods restarted %d times this week, all during the scheduled node rotation, so they look unrelated.", g.pick(fillerServices...), g.between(1, 6))
	},
	func(g *gen) string {
		return fmt.Sprintf("Port %d is open on %s and the listener belongs to the expected process.", g.between(1024, 65000), g.ip())
	},
	func(g *gen) string {
		return fmt.Sprintf("I compared the security group of %s with the one in %s; they allow the same ingress ranges.", g.pick(fillerRegions...), g.pick(fillerRegions...))
	},
}

var networkAsks = []func(*gen) string{
	func(g *gen) string {
		return fmt.Sprintf("While you're at it, can you check whether %s resolves from inside the cluster too?", g.host())
	},
	func(g *gen) string {
		return fmt.Sprintf("%s from the network team says the %s peering was renewed yesterday, fyi.", g.pick(fillerPeople...), g.pick(fillerRegions...))
	},
	func(g *gen) string {
		return fmt.Sprintf("Ok. Any packet loss toward %s? Their dashboard showed a blip around %02d:%02d.", g.pick(fillerServices...), g.between(0, 23), g.between(0, 59))
	},
	func(g *gen) string {
		return fmt.Sprintf("thanks, keep going. ping me if the %s gateway looks weird", g.pick(fillerRegions...))
	},
}

// ---- code ----

func (g *gen) goFile() string {
	return fmt.Sprintf("%s/%s_%s.go", g.pick(fillerPkgs...), g.pick(fillerWords...), g.pick("test", "util", "impl", "v2", "client"))
}

func (g *gen) codeTool() (string, map[string]any, string) {
	switch g.r.IntN(5) {
	case 0:
		fn := g.pick(fillerFuncs...)
		text := g.lines(2, 12, func(int) string {
			return fmt.Sprintf("%s:%d:\t%s(ctx, %s)", g.goFile(), g.between(12, 480), fn, g.pick("opts", "req", "cfg", "nil", "batch"))
		})
		return "run_shell", map[string]any{"cmd": "rg -n '" + fn + "\\(' --type go"}, text
	case 1:
		pkg := g.pick(fillerPkgs...)
		text := g.lines(3, 18, func(int) string {
			name := fmt.Sprintf("Test%s/%s_%d", exported(g.pick(fillerFuncs...)), g.pick(fillerWords...), g.between(1, 40))
			return fmt.Sprintf("=== RUN   %s\n--- PASS: %s (%ss)", name, name, g.pick("0.00", "0.01", "0.03", "0.12"))
		}) + fmt.Sprintf("\nPASS\nok  \tgithub.com/acme/%s/%s\t%ss", g.pick(fillerServices...), pkg, g.ms())
		return "run_shell", map[string]any{"cmd": "go test ./" + pkg + "/... -run " + g.pick(fillerFuncs...)}, text
	case 2:
		text := g.lines(3, 12, func(int) string {
			return fmt.Sprintf("%s %s %s", g.hex(7), g.pick("fix:", "feat:", "chore:", "refactor:", "test:"), g.pick(
				"bump retry budget for "+g.pick(fillerServices...),
				"log request id on "+g.pick(fillerWords...)+" errors",
				"drop unused "+g.pick(fillerFuncs...)+" helper",
				"cover "+g.pick(fillerWords...)+" eviction in tests",
				"rename "+g.pick(fillerFuncs...)+" for clarity",
			))
		})
		return "run_shell", map[string]any{"cmd": fmt.Sprintf("git log --oneline -%d", g.between(5, 15))}, text
	case 3:
		f := g.goFile()
		fn := g.pick(fillerFuncs...)
		text := fmt.Sprintf("// %s %s.\nfunc %s(ctx context.Context, %s %s) error {\n", fn, g.pick("retries with jittered backoff", "flushes pending rows", "reads the feature flags once", "records one observation"), fn, g.pick("n", "b", "cfg"), g.pick("int", "[]byte", "*Config")) +
			g.lines(3, 12, func(int) string {
				return "\t" + g.pick(
					fmt.Sprintf("if err := %s(ctx); err != nil {\n\t\treturn fmt.Errorf(\"%s: %%w\", err)\n\t}", g.pick(fillerFuncs...), g.pick(fillerWords...)),
					fmt.Sprintf("for i := 0; i < %d; i++ {\n\t\ttime.Sleep(time.Duration(i) * %dms)\n\t}", g.between(2, 8), g.between(10, 500)),
					fmt.Sprintf("m.%s.Add(%d)", g.pick("hits", "misses", "drops", "flushes"), g.between(1, 9)),
					fmt.Sprintf("log.Debug(\"%s\", \"n\", n)", g.pick(fillerWords...)),
				)
			}) + "\n\treturn nil\n}"
		return "read_file", map[string]any{"path": f, "lines": fmt.Sprintf("%d-%d", g.between(1, 200), g.between(201, 400))}, text
	default:
		text := g.lines(2, 10, func(int) string {
			return fmt.Sprintf(" %s | %d %s", g.goFile(), g.between(1, 90), strings.Repeat("+", g.between(1, 20))+strings.Repeat("-", g.between(0, 10)))
		}) + fmt.Sprintf("\n %d files changed, %d insertions(+), %d deletions(-)", g.between(2, 10), g.between(5, 300), g.between(0, 120))
		return "run_shell", map[string]any{"cmd": "git diff --stat HEAD~" + fmt.Sprint(g.between(1, 6))}, text
	}
}

var codeNotes = []func(*gen) string{
	func(g *gen) string {
		return fmt.Sprintf("%s in %s only wraps the error and returns; it is not on the failing path.", g.pick(fillerFuncs...), g.pick(fillerPkgs...))
	},
	func(g *gen) string {
		return fmt.Sprintf("The tests for %s pass locally in %ss, so the package itself is fine.", g.pick(fillerPkgs...), g.ms())
	},
	func(g *gen) string {
		return fmt.Sprintf("The last %d commits touch logging and test names only.", g.between(3, 12))
	},
	func(g *gen) string {
		return fmt.Sprintf("I looked at how %s is called: %d call sites, all pass a context with a deadline.", g.pick(fillerFuncs...), g.between(2, 14))
	},
	func(g *gen) string {
		return fmt.Sprintf("The linter flags an unused parameter in %s, harmless; leaving it for now.", g.pick(fillerFuncs...))
	},
	func(g *gen) string {
		return fmt.Sprintf("Coverage of %s is %d%% after the last refactor, which is close to the team's target.", g.pick(fillerPkgs...), g.between(55, 92))
	},
}

var codeAsks = []func(*gen) string{
	func(g *gen) string {
		return fmt.Sprintf("Did %s change the signature of %s recently? I vaguely remember a PR.", g.pick(fillerPeople...), g.pick(fillerFuncs...))
	},
	func(g *gen) string {
		return fmt.Sprintf("can you run the %s tests with -race as well, just in case", g.pick(fillerPkgs...))
	},
	func(g *gen) string {
		return fmt.Sprintf("Fine. How many places use %s? Just a rough count.", g.pick(fillerFuncs...))
	},
	func(g *gen) string {
		return "ok, continue. I'm in a meeting for " + fmt.Sprint(g.between(10, 45)) + " minutes"
	},
}

// ---- web ----

func (g *gen) webTool() (string, map[string]any, string) {
	site, page := g.pick(fillerSites...), g.pick(fillerPages...)
	switch g.r.IntN(4) {
	case 0:
		text := g.lines(3, 7, func(int) string {
			return fmt.Sprintf("%s - - [%02d/Mar/2025:%02d:%02d:%02d +0000] \"GET %s HTTP/2.0\" %s %d %dms \"%s\"",
				g.ip(), g.between(1, 28), g.between(0, 23), g.between(0, 59), g.between(0, 59), g.pick(fillerPages...),
				g.pick("200", "200", "200", "304", "301"), g.between(300, 90000), g.between(3, 900), g.pick("Mozilla/5.0 (X11; Linux x86_64)", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4)", "curl/8.5.0", "Googlebot/2.1"))
		})
		return "run_shell", map[string]any{"cmd": "tail -n 20 /var/log/nginx/" + g.pick("access", "frontend", "edge") + ".log"}, text
	case 1:
		text := fmt.Sprintf("Performance %d\nAccessibility %d\nBest Practices %d\nSEO %d\n", g.between(60, 99), g.between(70, 100), g.between(70, 100), g.between(80, 100)) +
			g.lines(2, 8, func(int) string {
				return fmt.Sprintf("- %s: %s s", g.pick("First Contentful Paint", "Largest Contentful Paint", "Speed Index", "Time to Interactive", "Total Blocking Time"), g.ms())
			})
		return "lighthouse", map[string]any{"url": "https://" + site + page}, text
	case 2:
		text := fmt.Sprintf("<title>%s | %s</title>\n", g.pick("Pricing", "Getting started", "Release notes", "Status", "Settings"), site) +
			g.lines(3, 10, func(int) string {
				return g.pick(
					fmt.Sprintf("<a href=\"%s\">%s</a>", g.pick(fillerPages...), g.pick("Read more", "Docs", "Contact sales", "Sign in")),
					fmt.Sprintf("<p>Plans start at %d seats and include %s support.</p>", g.between(1, 50), g.pick("email", "chat", "priority")),
					fmt.Sprintf("<script src=\"/static/js/%s.%s.js\" defer></script>", g.pick("main", "vendor", "runtime"), g.hex(8)),
					fmt.Sprintf("<meta name=\"description\" content=\"%s for %s teams\">", g.pick("Fast exports", "Simple billing", "Reliable search"), g.pick("small", "growing", "enterprise")),
				)
			})
		return "fetch_page", map[string]any{"url": "https://" + site + page}, text
	default:
		q := g.pick("cache-control immutable nginx", "http2 server push deprecated", "preload font crossorigin", "core web vitals INP threshold", "etag weak validator")
		text := g.lines(3, 8, func(i int) string {
			return fmt.Sprintf("%d. %s - %s\n   %s", i+1, g.pick("MDN Web Docs", "web.dev", "Stack Overflow", "nginx.org", "Chrome Developers"), g.pick(fillerSites...)+g.pick(fillerPages...),
				g.pick("Explains when browsers revalidate a cached response.", "A short guide with examples and browser support tables.", "Answer with 214 votes, accepted.", "Reference page for the directive and its defaults."))
		})
		return "web_search", map[string]any{"query": q}, text
	}
}

var webNotes = []func(*gen) string{
	func(g *gen) string {
		return fmt.Sprintf("The access log for %s shows mostly 200s and a few 304s; no burst of errors.", g.pick(fillerSites...))
	},
	func(g *gen) string {
		return fmt.Sprintf("Lighthouse puts %s at %d for performance, roughly the same as last month.", g.pick(fillerPages...), g.between(60, 99))
	},
	func(g *gen) string {
		return fmt.Sprintf("The %s bundle is %d kB gzipped; it was %d kB before the last release.", g.pick("main", "vendor", "runtime"), g.between(80, 400), g.between(80, 400))
	},
	func(g *gen) string {
		return fmt.Sprintf("Caching headers on %s look right: long max-age for hashed assets, no-cache for HTML.", g.pick(fillerSites...))
	},
	func(g *gen) string {
		return fmt.Sprintf("The search results agree with what I remembered about %s; moving on.", g.pick("ETags", "preloading fonts", "HTTP/2 push", "INP"))
	},
}

var webAsks = []func(*gen) string{
	func(g *gen) string {
		return fmt.Sprintf("Can you also look at %s on mobile? %s said it felt slow.", g.pick(fillerPages...), g.pick(fillerPeople...))
	},
	func(g *gen) string {
		return fmt.Sprintf("is the %s page cached at the edge or not?", g.pick(fillerPages...))
	},
	func(g *gen) string {
		return fmt.Sprintf("Marketing wants numbers for %s by Friday, no rush today.", g.pick(fillerSites...))
	},
}

// ---- data ----

func (g *gen) dataTool() (string, map[string]any, string) {
	table := g.pick(fillerTables...)
	switch g.r.IntN(4) {
	case 0:
		body := g.lines(3, 20, func(i int) string {
			return fmt.Sprintf(" 2025-03-%02d | %8d | %d", i+1, g.between(1000, 990000), g.between(0, 400))
		})
		text := fmt.Sprintf(" %-10s | %-8s | %s\n------------+----------+---------\n", "day", "rows", "late") +
			body + fmt.Sprintf("\n(%d rows)", strings.Count(body, "\n")+1)
		return "run_sql", map[string]any{"query": fmt.Sprintf("SELECT day, count(*) AS rows, sum(late::int) AS late FROM %s GROUP BY day ORDER BY day LIMIT %d", table, g.between(10, 31))}, text
	case 1:
		text := fmt.Sprintf("        %-12s %-12s %-12s\n", "amount", "items", "latency_ms") +
			g.lines(4, 8, func(i int) string {
				stat := []string{"count", "mean", "std", "min", "25%", "50%", "75%", "max"}[i%8]
				return fmt.Sprintf("%-7s %-12.2f %-12.2f %-12.2f", stat, float64(g.between(1, 900000))/100, float64(g.between(1, 9000))/100, float64(g.between(1, 500000))/100)
			})
		return "python", map[string]any{"code": fmt.Sprintf("pd.read_parquet('s3://warehouse/%s/%s.parquet').describe()", table, g.hex(6))}, text
	case 2:
		text := g.lines(3, 12, func(int) string {
			return fmt.Sprintf("%dM\ts3://warehouse/%s/dt=2025-03-%02d/", g.between(1, 900), g.pick(fillerTables...), g.between(1, 28))
		})
		return "run_shell", map[string]any{"cmd": "aws s3 ls --summarize --human-readable s3://warehouse/" + table + "/"}, text
	default:
		text := fmt.Sprintf("                                        QUERY PLAN\n------------------------------------------------------------------\n Aggregate  (cost=%d.%02d..%d.%02d rows=1 width=8) (actual time=%s..%s rows=1 loops=1)\n", g.between(1000, 90000), g.between(0, 99), g.between(1000, 90000), g.between(0, 99), g.ms(), g.ms()) +
			g.lines(2, 8, func(int) string {
				return fmt.Sprintf("   ->  %s on %s  (cost=0.%02d..%d.%02d rows=%d width=%d)", g.pick("Index Only Scan using "+table+"_pkey", "Seq Scan", "Bitmap Heap Scan", "Hash Join"), g.pick(fillerTables...), g.between(0, 99), g.between(10, 9000), g.between(0, 99), g.between(10, 900000), g.between(4, 64))
			}) + fmt.Sprintf("\n Planning Time: %s ms\n Execution Time: %s ms", g.ms(), g.ms())
		return "run_sql", map[string]any{"query": "EXPLAIN ANALYZE SELECT count(*) FROM " + table + " WHERE created_at > now() - interval '" + fmt.Sprint(g.between(1, 30)) + " days'"}, text
	}
}

var dataNotes = []func(*gen) string{
	func(g *gen) string {
		return fmt.Sprintf("Row counts in %s are flat day over day, around %dk; no gap in the partitions.", g.pick(fillerTables...), g.between(10, 990))
	},
	func(g *gen) string {
		return fmt.Sprintf("The planner uses the primary key index on %s, so that query is not the slow one.", g.pick(fillerTables...))
	},
	func(g *gen) string {
		return fmt.Sprintf("The %s parquet files are between %d and %d MB each, which is what the compaction job aims for.", g.pick(fillerTables...), g.between(20, 90), g.between(100, 300))
	},
	func(g *gen) string {
		return fmt.Sprintf("Late rows in %s stay under %d per day, within the usual range.", g.pick(fillerTables...), g.between(50, 500))
	},
	func(g *gen) string {
		return fmt.Sprintf("The distribution of amounts has a long tail, mean well above median, as expected for %s.", g.pick(fillerTables...))
	},
}

var dataAsks = []func(*gen) string{
	func(g *gen) string {
		return fmt.Sprintf("Can you check if %s has the same late-row pattern? %s asked.", g.pick(fillerTables...), g.pick(fillerPeople...))
	},
	func(g *gen) string {
		return fmt.Sprintf("how big is the %s bucket these days, roughly?", g.pick(fillerTables...))
	},
	func(g *gen) string {
		return fmt.Sprintf("The dashboard for %s loads slowly again, but that's a separate ticket, ignore it for now.", g.pick(fillerTables...))
	},
}

func exported(name string) string { return strings.ToUpper(name[:1]) + name[1:] }
