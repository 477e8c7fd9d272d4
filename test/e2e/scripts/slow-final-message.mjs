// A Pi extension for tests: holds up Pi's event queue on every assistant message_end that ends a run (stopReason
// "stop") for SLOW_FINAL_MESSAGE_MS. Pi hands that event to extensions before it appends the message to the session
// file, and print mode disposes the session (session_shutdown) without waiting for the queue: the delay opens, every
// time, the window in which a shutdown sync would miss the run's final line.
const delayMs = Number(process.env.SLOW_FINAL_MESSAGE_MS ?? 1500);

export default function slowFinalMessage(pi) {
	pi.on("message_end", async (event) => {
		if (event.message.role === "assistant" && event.message.stopReason === "stop") {
			await new Promise((resolve) => setTimeout(resolve, delayMs));
		}
	});
}
