"""What an operator reads off a running site: liveness and readiness probes
(`probes`), Prometheus metrics (`metrics`), how late the timers fire (`lateness`),
structured logs (`logs`) and the staff dashboard (`dashboard`)."""
