/**
 * Pi's terminal width helpers (ANSI- and wide-character-aware), taken at activation from the Pi that loaded the
 * extension: Pi 1.x resolves `@earendil-works/pi-tui` to its own copy, Pi 0.73 knows only `@mariozechner/pi-tui`.
 * Loaded rather than imported, so that the extension's modules name no Pi package at run time and load under either.
 */
import type * as PiTui from "@earendil-works/pi-tui";

/** The three helpers the tool rows are laid out with. */
export type TuiWidth = Pick<typeof PiTui, "visibleWidth" | "truncateToWidth" | "wrapTextWithAnsi">;

let loaded: TuiWidth | undefined;

/** Loads the helpers once (the extension's activation awaits this before registering its tools). */
export async function loadTuiWidth(): Promise<TuiWidth> {
	loaded ??= await import("@earendil-works/pi-tui").catch(
		() => import("@mariozechner/pi-tui") as Promise<unknown> as Promise<TuiWidth>,
	);
	return loaded;
}

/** The loaded helpers (a row is only drawn after activation). */
export function tuiWidth(): TuiWidth {
	if (loaded === undefined) throw new Error("the terminal width helpers are used before loadTuiWidth()");
	return loaded;
}
