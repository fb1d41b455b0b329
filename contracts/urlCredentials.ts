/**
 * The user information of a URL (`https://oauth2:<token>@github.com/...`, `https://user:pass@charts.example.com`) is a
 * credential, whichever setting holds the URL and whichever output shows it. One rule for the configuration's
 * redactor (config/redact.ts) and for every line the command line prints (cli/io.ts). It imports nothing, so the
 * command line can use it without loading the configuration modules (`mara --help` stays fast).
 */

/** What user information is replaced with; the same word the configuration's redactor uses for every secret. */
export const URL_CREDENTIALS_REDACTED = "[secret]";

/** `scheme://` followed by user information and `@`: the user information is everything up to the `@` before the host. */
const WITH_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"'<>\\]+)@/gi;

/** `text` with the user information of every URL in it replaced by {@link URL_CREDENTIALS_REDACTED}. */
export function redactUrlCredentials(text: string): string {
    return text.includes("@") ? text.replace(WITH_USERINFO, (_, scheme: string) => `${scheme}${URL_CREDENTIALS_REDACTED}@`) : text;
}

/**
 * The credentials in the user information of every URL in `value`, each as written and percent-decoded: the password
 * when there is one, else a user name long enough to be a token given alone (`https://<token>@host`). A user name
 * next to a password (`oauth2`) or a short one on its own (`ssh://git@host`) is no secret and is left out, so
 * ordinary words are not hidden from messages; the URL form is redacted whatever it holds.
 */
export function urlCredentials(value: string): string[] {
    const out: string[] = [];
    for (const m of value.matchAll(WITH_USERINFO)) {
        const info = m[2]!;
        const colon = info.indexOf(":");
        const secret = colon >= 0 ? info.slice(colon + 1) : info;
        if (secret === "" || (colon < 0 && secret.length < 8)) continue;
        out.push(secret, info);
        try {
            const decoded = decodeURIComponent(secret);
            if (decoded !== secret) out.push(decoded);
        } catch {
            // Not valid percent-encoding: the text as written is the only form it can appear in.
        }
    }
    return out;
}
