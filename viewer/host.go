package viewer

import (
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
)

// OwnHost wraps h so that it answers only the requests addressed to the
// viewer by a name of its own address: a Host header of 127.0.0.1,
// localhost or [::1], or the host --addr named, each with the port
// listen has (without it when the port is 80, as browsers write it); on a
// listener of every interface (0.0.0.0, [::]), also the machine's
// addresses and host name. Any other Host gets 421 Misdirected Request
// before h reads anything: a page served from a rebinding domain (one that
// resolves to 127.0.0.1 once the browser has loaded it) sends its own
// domain as the Host, so it cannot read a run through the user's browser.
// named is the host --addr gave ("" when it gave none).
func OwnHost(h http.Handler, listen net.Addr, named string) http.Handler {
	port := 0
	var ip net.IP
	if a, ok := listen.(*net.TCPAddr); ok {
		port, ip = a.Port, a.IP
	}
	names := []string{"127.0.0.1", "localhost", "::1"}
	if named != "" {
		names = append(names, named)
	}
	if ip != nil {
		names = append(names, ip.String())
		if ip.IsUnspecified() {
			names = append(names, machineNames()...)
		}
	}
	allowed := map[string]bool{}
	for _, n := range names {
		n = strings.ToLower(strings.Trim(n, "[]"))
		allowed[net.JoinHostPort(n, strconv.Itoa(port))] = true
		if port == 80 {
			allowed[hostForm(n)] = true
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !allowed[strings.ToLower(r.Host)] {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Header().Set("X-Content-Type-Options", "nosniff")
			w.WriteHeader(http.StatusMisdirectedRequest)
			w.Write([]byte("misdirected request: this viewer answers only requests addressed to its own address (http://" +
				net.JoinHostPort(hostForm(names[0]), strconv.Itoa(port)) + "/ or localhost)\n"))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// hostForm is a host as a Host header writes it: an IPv6 address in
// brackets.
func hostForm(h string) string {
	if strings.Contains(h, ":") {
		return "[" + h + "]"
	}
	return h
}

// machineNames are the addresses of the machine's interfaces and its host
// name: what a viewer listening on every interface is reached by.
func machineNames() []string {
	var out []string
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				out = append(out, n.IP.String())
			}
		}
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		out = append(out, h)
	}
	return out
}
