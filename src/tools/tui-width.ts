/**
 * Pi's terminal width helpers (ANSI- and wide-character-aware), by Pi 1.x's package name. The extension's one file
 * carries them (scripts/bundle-cli.mjs takes them from the pi-tui this package builds with, `dist/utils.js` and its
 * one package): Pi imports that file natively, where its loader's aliases do not apply, and `pi install` leaves
 * peers out, so a named pi-tui did not resolve there and sent Pi to jiti's slower fallback (docs/extension.md). The
 * three functions are pure: a copy behaves as Pi's own, under Pi 1.x and 0.73 alike. The compiled modules, which
 * tests and the CLI run, still import the package by name.
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
