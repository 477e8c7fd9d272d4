/** The one sentence that reports a parent cycle (read and trace; tools and CLI). */
import type { ParentCycle } from "../contract.js";

/** "parent cycle: …": where the parent link loops and how Pi resolves it. */
export function parentCycleText(c: ParentCycle): string {
	const how =
		c.parentId === c.at.entryId
			? "names itself as parent (Pi takes it for a root)"
			: `has parent ${c.parentId}, which leads back to it (Pi's tree gives such a cycle no root)`;
	return `parent cycle: ${c.at.entryId} ${how}; the walk stops there`;
}
