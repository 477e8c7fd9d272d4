/**
 * Whether Pi's agent is in the middle of a run, from the agent_start and agent_end events. Pi hands agent events to
 * extensions through a queue, and its print mode disposes the session (session_shutdown) as soon as prompt()
 * resolves, while that queue may still hold the run's last message_end (the one that appends the final entry to
 * the session file), turn_end and agent_end. A shutdown sync that ran then missed the final line (seen in the
 * two-runtime e2e test about one run in three on a loaded machine). So shutdown first waits for agent_end, bounded,
 * since a run that was cut off may never send it.
 */
export class AgentRuns {
	private running = false;
	private readonly waiters = new Set<() => void>();

	/** agent_start was handled. */
	started(): void {
		this.running = true;
	}

	/** agent_end was handled: everything of the run is on disk. */
	ended(): void {
		this.running = false;
		for (const wake of [...this.waiters]) wake();
	}

	/** Resolves once no run is open, or after `timeoutMs` at the latest. */
	whenIdle(timeoutMs: number): Promise<void> {
		if (!this.running) return Promise.resolve();
		return new Promise((resolve) => {
			const wake = () => {
				clearTimeout(timer);
				this.waiters.delete(wake);
				resolve();
			};
			const timer = setTimeout(wake, timeoutMs);
			this.waiters.add(wake);
		});
	}
}
