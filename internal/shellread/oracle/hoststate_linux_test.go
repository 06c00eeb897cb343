package oracle

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// Beyond files, a command may change what the sandbox's namespaces hold:
// the network (a connection or a DNS query to any loopback listener, a
// socket left listening), the clock, and the host and domain names. The
// worker brings its loopback up, points the resolver at 127.0.0.1, listens
// on a few ports, and compares these before and after every command.

// loopbackPorts are the TCP ports the worker listens on (and 53 for UDP):
// the ones the generator's network probes name.
var loopbackPorts = []int{22, 53, 80, 443, 7777, 8080}

// connections counts the connections the worker's TCP listeners accepted,
// queries the datagrams its name server received.
var connections, queries atomic.Int64

// setupNetwork brings up lo, makes 127.0.0.1 the only name server and
// starts the listeners.
func setupNetwork() error {
	if out, err := exec.Command("ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		return fmt.Errorf("ip link set lo up: %v: %s", err, out)
	}
	const resolv = "/run/oracle-resolv.conf"
	if err := os.WriteFile(resolv, []byte("nameserver 127.0.0.1\noptions attempts:1 timeout:1\n"), 0o644); err != nil {
		return err
	}
	if err := syscall.Mount(resolv, "/etc/resolv.conf", "", syscall.MS_BIND, ""); err != nil {
		return fmt.Errorf("binding the resolver: %w", err)
	}
	for _, p := range loopbackPorts {
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			return err
		}
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				connections.Add(1)
				c.Close()
			}
		}()
	}
	u, err := net.ListenPacket("udp", "127.0.0.1:53")
	if err != nil {
		return err
	}
	go func() {
		buf := make([]byte, 2048)
		for {
			n, from, err := u.ReadFrom(buf)
			if err != nil {
				return
			}
			queries.Add(1)
			if n >= 12 { // answer REFUSED at once, so a lookup does not wait
				buf[2] |= 0x80
				buf[3] = buf[3]&0xf0 | 5
				u.WriteTo(buf[:n], from)
			}
		}
	}()
	return nil
}

// hostState is what a command could change outside the files.
type hostState struct {
	connections, queries int64
	listening            int
	node                 string
	domain               string
	skew                 time.Duration // wall clock minus monotonic clock, since the worker started
}

var started = time.Now()

func readHostState() hostState {
	var u syscall.Utsname
	syscall.Uname(&u)
	now := time.Now()
	return hostState{
		connections: connections.Load(),
		queries:     queries.Load(),
		listening:   listeningSockets(),
		node:        utsString(u.Nodename[:]),
		domain:      utsString(u.Domainname[:]),
		skew:        now.Round(0).Sub(started.Round(0)) - now.Sub(started),
	}
}

func utsString(b []int8) string {
	var s strings.Builder
	for _, c := range b {
		if c == 0 {
			break
		}
		s.WriteByte(byte(c))
	}
	return s.String()
}

// listeningSockets counts the TCP sockets listening and the UDP sockets
// bound in the namespace (the worker's own included: they are constant).
func listeningSockets() int {
	n := 0
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6", "/proc/net/udp", "/proc/net/udp6"} {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) > 3 && (fields[3] == "0A" || strings.HasPrefix(f, "/proc/net/udp") && fields[3] == "07") {
				n++
			}
		}
		fh.Close()
	}
	return n
}

// hostChanges describes what differs between two host states; the clock
// counts as changed when it moved more than a second against the
// monotonic clock.
func hostChanges(before, after hostState) []string {
	var out []string
	if d := after.connections - before.connections; d != 0 {
		out = append(out, fmt.Sprintf("network: %d connections to the loopback listeners", d))
	}
	if d := after.queries - before.queries; d != 0 {
		out = append(out, fmt.Sprintf("network: %d DNS queries to the loopback name server", d))
	}
	if after.listening != before.listening {
		out = append(out, fmt.Sprintf("network: listening sockets %d -> %d", before.listening, after.listening))
	}
	if after.node != before.node {
		out = append(out, fmt.Sprintf("host name %q -> %q", before.node, after.node))
	}
	if after.domain != before.domain {
		out = append(out, fmt.Sprintf("domain name %q -> %q", before.domain, after.domain))
	}
	if d := after.skew - before.skew; d > time.Second || d < -time.Second {
		out = append(out, fmt.Sprintf("clock moved by %v", d))
	}
	return out
}
