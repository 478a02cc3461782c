/**
 * The end of a switch over a union that must name every member: a new member added to the
 * union (a new event type) stops the build at every switch that does not handle it yet. At run
 * time it does nothing, so a value from outside (an older session file) is passed over.
 */
export function exhaustive(_value: never): void {}
