#!/bin/sh
# Collects a first-look triage bundle on a Linux or macOS host: who is logged in, what listens,
# what runs, and the last lines of the auth log. Writes to stdout; the response action keeps it.
set -u
echo "== host"; uname -a; uptime
echo "== users"; who
echo "== listening sockets"; (ss -tlnp 2>/dev/null || netstat -an | grep LISTEN)
echo "== processes"; ps -eo pid,ppid,user,etime,args | head -200
for log in /var/log/auth.log /var/log/secure; do
  [ -r "$log" ] && { echo "== $log"; tail -n 200 "$log"; }
done
