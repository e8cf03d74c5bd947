/**
 * Unicode's bidirectional controls: the embeddings and overrides (U+202A–U+202E),
 * the isolates (U+2066–U+2069) and the marks (U+200E, U+200F, U+061C). In a name
 * someone else chose they reorder what is shown: `inv\u202Egnp.exe` reads "invexe.png".
 */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `name` with each bidirectional control made a visible `_`, as a saved file's
 * name has it: a name shown on a page reads in the order its characters are in.
 */
export const neutraliseBidi = (name: string) => name.replace(BIDI_CONTROLS, '_');
