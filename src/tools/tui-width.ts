/**
 * Pi's terminal width helpers (ANSI- and wide-character-aware), by Pi 1.x's package name: Pi 1.x's loader maps it to
 * its own copy in every mode (npm on Node, `bun cli.js`, the compiled binary), so no legacy name is needed. Pi 0.73
 * knows only `@mariozechner/pi-tui`: under it the name resolves to this package's own dev copy of Pi 1.x's pi-tui
 * (installed by `npm ci`), whose three pure functions behave the same (README, "Install into Pi").
 */
import { truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@earendil-works/pi-tui";

/** The three helpers the tool rows are laid out with. */
export interface TuiWidth {
	visibleWidth: typeof visibleWidth;
	truncateToWidth: typeof truncateToWidth;
	wrapTextWithAnsi: typeof wrapTextWithAnsi;
}

const helpers: TuiWidth = { visibleWidth, truncateToWidth, wrapTextWithAnsi };

/** The helpers. */
export function tuiWidth(): TuiWidth {
	return helpers;
}
