// The first N entries of an activity page (tailcall.graphql): Tailcall 1.0 hands a @js function
// the parent value as JSON text and takes the field's value back as JSON text.
// biome-ignore lint/correctness/noUnusedVariables: Tailcall calls it by its name (@js).
function first2(page) {
  return JSON.stringify(JSON.parse(page).results.slice(0, 2));
}
// biome-ignore lint/correctness/noUnusedVariables: Tailcall calls it by its name (@js).
function first5(page) {
  return JSON.stringify(JSON.parse(page).results.slice(0, 5));
}
