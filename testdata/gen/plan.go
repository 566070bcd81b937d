package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// domain is a business area: a plural module name, its singular entity and
// a few words used in descriptions.
type domain struct {
	plural, singular string
}

var domainList = []domain{
	{"Orders", "Order"}, {"Accounts", "Account"}, {"Invoices", "Invoice"}, {"Products", "Product"},
	{"Customers", "Customer"}, {"Shipments", "Shipment"}, {"Payments", "Payment"}, {"Carts", "Cart"},
	{"Coupons", "Coupon"}, {"Reviews", "Review"}, {"Warehouses", "Warehouse"}, {"Suppliers", "Supplier"},
	{"Subscriptions", "Subscription"}, {"Tickets", "Ticket"}, {"Projects", "Project"}, {"Tasks", "Task"},
	{"Notes", "Note"}, {"Teams", "Team"}, {"Members", "Member"}, {"Comments", "Comment"},
	{"Tags", "Tag"}, {"Webhooks", "Webhook"}, {"Reports", "Report"}, {"Refunds", "Refund"},
	{"Returns", "Return"}, {"Stores", "Store"}, {"Prices", "Price"}, {"Discounts", "Discount"},
	{"Campaigns", "Campaign"}, {"Messages", "Message"}, {"Sessions", "Session"}, {"Devices", "Device"},
	{"Uploads", "Upload"}, {"Exports", "Export"}, {"Imports", "Import"}, {"Schedules", "Schedule"},
	{"Bookings", "Booking"}, {"Venues", "Venue"}, {"Events", "Event"}, {"Badges", "Badge"},
}

// kind is the role of a generated module.
type kind int

const (
	kindTool kind = iota
	kindSchemas
	kindGenServer
	kindContext
	kindEcto
	kindController
	kindHelper
	kindTest
)

// modSpec is one module to write.
type modSpec struct {
	kind   kind
	dom    domain
	camel  string // domain plural plus a numeric suffix when reused
	snake  string
	module string
	path   string
	target int // approximate line count
	tool   *toolSpec
}

// generator holds the random source and the plan of one project.
type generator struct {
	rng      *rand.Rand
	app      string
	mods     []*modSpec
	tools    []*toolSpec
	nSchemas int
	counters map[kind]int
}

// name returns the i-th unique (camel, snake, domain) for a kind: the
// domains in order, then again with suffixes 2, 3, ...
func (g *generator) name(k kind) (string, string, domain) {
	if g.counters == nil {
		g.counters = map[kind]int{}
	}
	i := g.counters[k]
	g.counters[k]++
	d := domainList[i%len(domainList)]
	camel := d.plural
	if n := i / len(domainList); n > 0 {
		camel = fmt.Sprintf("%s%d", d.plural, n+1)
	}
	return camel, snake(camel), d
}

// snake turns "Orders2" into "orders2" and "OrderItems" into "order_items".
func snake(camel string) string {
	var b strings.Builder
	for i, r := range camel {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lineTarget draws an ordinary module's length: 50..290 lines, about 170
// on average, which brings the whole project (tool and Schemas modules are
// shorter) to about 150 lines per module.
func (g *generator) lineTarget() int {
	return 50 + g.rng.IntN(121) + g.rng.IntN(121)
}

// plan decides every module: how many of each kind, their names, paths,
// tool declarations and planted offences.
func (g *generator) plan(n int) {
	nTools := max(1, (n+5)/10)
	nSchemas := min(n/20, nTools)
	if nTools+nSchemas > n {
		nSchemas = max(0, n-nTools)
	}
	rest := n - nTools - nSchemas
	nTests := rest * 2 / 9 // about 20% of all modules
	rest -= nTests

	// Tools first: each tool i < nSchemas reads its own Schemas module.
	withSchemas := g.rng.Perm(nTools)[:nSchemas]
	reads := map[int]bool{}
	for _, i := range withSchemas {
		reads[i] = true
	}
	for i := range nTools {
		camel, sn, d := g.name(kindTool)
		t := &toolSpec{
			camel:   camel,
			dom:     d,
			module:  fmt.Sprintf("%s.Tools.%s", g.app, camel),
			path:    fmt.Sprintf("lib/shop/tools/%s.ex", sn),
			schemas: reads[i],
		}
		g.tools = append(g.tools, t)
		g.mods = append(g.mods, &modSpec{kind: kindTool, dom: d, camel: camel, snake: sn,
			module: t.module, path: t.path, tool: t})
		if t.schemas {
			g.nSchemas++
			g.mods = append(g.mods, &modSpec{kind: kindSchemas, dom: d, camel: camel, snake: sn,
				module: t.module + ".Schemas", path: fmt.Sprintf("lib/shop/tools/%s/schemas.ex", sn), tool: t})
		}
	}
	g.planOffences()
	for _, t := range g.tools {
		g.buildTool(t)
	}

	weights := []struct {
		k kind
		w int
	}{{kindGenServer, 2}, {kindContext, 3}, {kindEcto, 2}, {kindController, 2}, {kindHelper, 1}}
	total := 0
	for _, w := range weights {
		total += w.w
	}
	for range rest {
		x := g.rng.IntN(total)
		k := weights[0].k
		for _, w := range weights {
			if x < w.w {
				k = w.k
				break
			}
			x -= w.w
		}
		g.addPlain(k)
	}
	for range nTests {
		g.addPlain(kindTest)
	}
}

// addPlain plans one ordinary module of kind k.
func (g *generator) addPlain(k kind) {
	camel, sn, d := g.name(k)
	m := &modSpec{kind: k, dom: d, camel: camel, snake: sn, target: g.lineTarget()}
	switch k {
	case kindGenServer:
		m.module = fmt.Sprintf("%s.%s.Worker", g.app, camel)
		m.path = fmt.Sprintf("lib/shop/%s/worker.ex", sn)
	case kindContext:
		m.module = fmt.Sprintf("%s.%s", g.app, camel)
		m.path = fmt.Sprintf("lib/shop/%s.ex", sn)
	case kindEcto:
		m.module = fmt.Sprintf("%s.%s.%s", g.app, camel, d.singular)
		m.path = fmt.Sprintf("lib/shop/%s/%s.ex", sn, snake(d.singular))
	case kindController:
		m.module = fmt.Sprintf("%sWeb.%sController", g.app, camel)
		m.path = fmt.Sprintf("lib/shop_web/controllers/%s_controller.ex", sn)
	case kindHelper:
		m.module = fmt.Sprintf("%s.%s.Helpers", g.app, camel)
		m.path = fmt.Sprintf("lib/shop/%s/helpers.ex", sn)
	case kindTest:
		// Every few tests cover a tool module, reading its actions/0.
		if i := g.counters[kindTest] - 1; i%4 == 3 && i/4 < len(g.tools) {
			m.tool = g.tools[i/4]
			m.module = m.tool.module + "Test"
			m.path = fmt.Sprintf("test/shop/tools/%s_test.exs", snake(m.tool.camel))
		} else {
			m.module = fmt.Sprintf("%s.%sTest", g.app, camel)
			m.path = fmt.Sprintf("test/shop/%s_test.exs", sn)
		}
	}
	g.mods = append(g.mods, m)
}

// files renders every planned module plus mix.exs and test_helper.exs.
func (g *generator) files() []*fileBuf {
	out := []*fileBuf{g.mixExs(), {path: "test/test_helper.exs", lines: []string{"ExUnit.start()"}}}
	for _, m := range g.mods {
		switch m.kind {
		case kindTool:
			out = append(out, g.renderTool(m.tool))
		case kindSchemas:
			out = append(out, g.renderSchemas(m.tool))
		default:
			out = append(out, g.renderPlain(m))
		}
	}
	return out
}

func (g *generator) mixExs() *fileBuf {
	b := &fileBuf{path: "mix.exs"}
	b.p(`defmodule Shop.MixProject do
  use Mix.Project

  def project do
    [
      app: :shop,
      version: "0.1.0",
      elixir: "~> 1.16",
      elixirc_paths: elixirc_paths(Mix.env()),
      start_permanent: Mix.env() == :prod,
      deps: deps()
    ]
  end

  def application do
    [mod: {Shop.Application, []}, extra_applications: [:logger]]
  end

  defp elixirc_paths(:test), do: ["lib", "test/support"]
  defp elixirc_paths(_), do: ["lib"]

  defp deps do
    [
      {:wymcp, "~> 0.4"},
      {:phoenix, "~> 1.7"},
      {:ecto_sql, "~> 3.11"},
      {:postgrex, ">= 0.0.0"},
      {:jason, "~> 1.4"}
    ]
  end
end`)
	return b
}
