// Preload (node -r) for tests of what ends a connection: keeps every answer `fetch` returns reachable for the whole
// process, so the garbage collector cannot end a connection the code left open (Node's fetch cancels an unread body
// once its Response is collected, at a moment no test controls). A connection that closes is then one the code
// closed. Plain JavaScript: it runs before any loader.
"use strict";
const kept = [];
const original = globalThis.fetch;
globalThis.fetch = async function fetchRetained(...args) {
    const answer = await original.apply(this, args);
    kept.push(answer);
    return answer;
};
