/**
 * The first bytes of an answer, for a message that says what a server sent instead of what was expected ("not JSON:
 * it begins `<html>…`"). Short, on one line, with control characters shown as escapes, and with every credential the
 * caller knows (the token it sent, which a hostile server may echo) and anything shaped like a token hidden.
 */
import { URL_CREDENTIALS_REDACTED, redactUrlCredentials } from "../../contracts/urlCredentials";

/** Characters of an answer a message quotes. */
export const EXCERPT_CHARS = 80;

/** A JWT (service account and OIDC tokens). */
const JWT = /\beyJ[\w-]+\.[\w-]+\.[\w-]*/g;
/** A long run of base64 or hex characters; a credential when it mixes cases and digits as random bytes do, or is all hex. */
const LONG_RUN = /[A-Za-z0-9+/_-]{40,}={0,2}/g;
const AUTH_SCHEME = /\b(Bearer|Basic)\s+\S+/gi;

/** Whether a long run is random-looking (a Kubernetes name, lower case with hyphens, is not). */
const randomLooking = (run: string): boolean => /^[0-9a-f]+$/i.test(run) || (/[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9]/.test(run));

/**
 * `text` with each of `secrets` (longer than 3 characters) and every token-shaped run replaced by `[secret]`: a
 * bearer or basic credential, a JWT, a long random-looking run (mixed case and digits, or hex, of 40 characters or
 * more). Kubernetes names, lower case with hyphens, stay readable however long.
 */
export function redactKnown(text: string, secrets: readonly string[] = []): string {
    let out = text;
    for (const s of [...secrets].filter((x) => x.length > 3).sort((a, b) => b.length - a.length)) out = out.split(s).join(URL_CREDENTIALS_REDACTED);
    out = out.replace(AUTH_SCHEME, (_, scheme: string) => `${scheme} ${URL_CREDENTIALS_REDACTED}`);
    out = out.replace(JWT, URL_CREDENTIALS_REDACTED);
    out = out.replace(LONG_RUN, (run) => (randomLooking(run) ? URL_CREDENTIALS_REDACTED : run));
    return redactUrlCredentials(out);
}

/**
 * The beginning of `body` as a quoted, one-line excerpt (`"<!DOCTYPE html>\n<html>…"`), or `nothing` when it is empty.
 *
 * @param secrets - values that must not appear (the credentials the request carried).
 */
export function excerpt(body: Buffer | string, secrets: readonly string[] = []): string {
    // Decoded from a bounded prefix: a huge answer is never turned into one huge string for a message.
    const text = typeof body === "string" ? body.slice(0, EXCERPT_CHARS * 4) : body.subarray(0, EXCERPT_CHARS * 4).toString("utf8");
    if (text.length === 0) return "nothing";
    const redacted = redactKnown(text, secrets);
    const shown = redacted.slice(0, EXCERPT_CHARS);
    const more = redacted.length > shown.length || body.length > EXCERPT_CHARS * 4;
    // JSON's escapes show a newline as \n and a control character as \u0000, so the excerpt stays on one line.
    const quoted = JSON.stringify(shown);
    return more ? `${quoted.slice(0, -1)}…"` : quoted;
}
