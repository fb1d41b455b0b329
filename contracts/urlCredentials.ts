/**
 * The user information of a URL (`https://oauth2:<token>@github.com/...`, `https://user:pass@charts.example.com`) is a
 * credential, whichever setting holds the URL and whichever output shows it; so is the value of a query parameter
 * whose name says it holds one (GitLab's `?private_token=`, OAuth's `?access_token=`, a signed URL's `sig=`). One
 * rule for the configuration's redactor (config/redact.ts) and for every line the command line prints (cli/kernel/io.ts). It
 * imports nothing, so the command line can use it without loading the configuration modules (`mara --help` stays fast).
 */

/** What user information is replaced with; the same word the configuration's redactor uses for every secret. */
export const URL_CREDENTIALS_REDACTED = "[secret]";

/**
 * `scheme://` followed by user information and `@`: the user information is everything up to the authority's last `@`
 * (an `@` in a password left unencoded belongs to it, as URL parsers read it).
 */
const WITH_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#"'<>\\]+)@/gi;

/** Names of query parameters whose value is a credential. */
export const CREDENTIAL_PARAMETER_NAME = /token|key|secret|pass|pwd|auth|sig|credential|session/i;

/** `?name=value` or `&name=value` with such a name: the name with its `=`, then the value. */
const CREDENTIAL_QUERY = new RegExp(`([?&][^=&#\\s"'<>?]*?(?:${CREDENTIAL_PARAMETER_NAME.source})[^=&#\\s"'<>?]*=)([^&#\\s"'<>]+)`, "gi");

/**
 * `text` with the user information of every URL in it, and the value of every query parameter named as a credential,
 * replaced by {@link URL_CREDENTIALS_REDACTED}.
 */
export function redactUrlCredentials(text: string): string {
    const withoutUserInfo = text.includes("@") ? text.replace(WITH_USERINFO, (_, scheme: string) => `${scheme}${URL_CREDENTIALS_REDACTED}@`) : text;
    return /[?&]/.test(withoutUserInfo) ? withoutUserInfo.replace(CREDENTIAL_QUERY, (_, name: string) => `${name}${URL_CREDENTIALS_REDACTED}`) : withoutUserInfo;
}

/**
 * The credentials in every URL in `value`, each as written and percent-decoded: the values of query parameters named as
 * credentials; and in the user information, the password
 * when there is one, else a user name long enough to be a token given alone (`https://<token>@host`). A user name
 * next to a password (`oauth2`) or a short one on its own (`ssh://git@host`) is no secret and is left out, so
 * ordinary words are not hidden from messages; the URL form is redacted whatever it holds.
 */
export function urlCredentials(value: string): string[] {
    const out: string[] = [];
    for (const m of value.matchAll(CREDENTIAL_QUERY)) out.push(...withDecoded(m[2]!));
    for (const m of value.matchAll(WITH_USERINFO)) {
        const info = m[2]!;
        const colon = info.indexOf(":");
        const secret = colon >= 0 ? info.slice(colon + 1) : info;
        if (secret === "" || (colon < 0 && secret.length < 8)) continue;
        out.push(info, ...withDecoded(secret));
    }
    return out;
}

/** A credential as written and, when it differs, percent-decoded. */
function withDecoded(secret: string): string[] {
    try {
        const decoded = decodeURIComponent(secret);
        return decoded === secret ? [secret] : [secret, decoded];
    } catch {
        // Not valid percent-encoding: the text as written is the only form it can appear in.
        return [secret];
    }
}
