/**
 * Log formats the log agent parses, shared by the components that write them (the ingress controller's access
 * log) and the log agent that reads them: the ingress controller's access-log format, the name a pod's
 * `fluentbit.io/parser` annotation gives, and the Fluent Bit parser of that name.
 */
import { section } from "./fluentBitConfig";

/** Access-log fields NGINX always writes as a number: unquoted in the JSON, so they are stored as numbers. */
const NUMERIC_LOG_FIELDS: Readonly<Record<string, string>> = {
    status: "$status",
    body_bytes_sent: "$body_bytes_sent",
    bytes_sent: "$bytes_sent",
    request_length: "$request_length",
    request_time: "$request_time",
};
/**
 * Access-log fields written as strings: those NGINX may leave empty or write as a list (the upstream ones hold one
 * value per upstream tried, `"0.002, 0.004"`, and nothing when no upstream was contacted).
 */
const TEXT_LOG_FIELDS: Readonly<Record<string, string>> = {
    remote_addr: "$remote_addr",
    remote_user: "$remote_user",
    request: "$request",
    request_method: "$request_method",
    host: "$host",
    uri: "$uri",
    server_protocol: "$server_protocol",
    http_referer: "$http_referer",
    http_user_agent: "$http_user_agent",
    request_id: "$request_id",
    proxy_host: "$proxy_host",
    upstream_addr: "$upstream_addr",
    upstream_status: "$upstream_status",
    upstream_response_time: "$upstream_response_time",
    upstream_bytes_sent: "$upstream_bytes_sent",
};

/** The access-log fields, as they appear under `nginx.` in the stored logs. */
export const ACCESS_LOG_FIELDS: readonly string[] = [...Object.keys(NUMERIC_LOG_FIELDS), ...Object.keys(TEXT_LOG_FIELDS)];

/**
 * The access-log format: MARA's fields (remote address and user, time, request, status, bytes, referrer, user
 * agent, upstream timing and status, URI, request length and time, proxied host, upstream address and bytes,
 * request ID) plus method, host and protocol, as one JSON object per line. JSON rather than MARA's text format:
 * with `log-format-escaping: json` NGINX writes valid JSON whatever a URI or user agent holds, which no regular
 * expression parses reliably. The fields sit under `nginx`, so they cannot clash with other applications' fields
 * in the shared log indices; `time` is the request's end in epoch seconds with milliseconds (`$msec`), which the
 * log agent's `nginx-access` parser makes the record's timestamp.
 */
export const ACCESS_LOG_FORMAT =
    `{"time":"$msec","nginx":{` +
    [
        ...Object.entries(NUMERIC_LOG_FIELDS).map(([k, v]) => `"${k}":${v}`),
        ...Object.entries(TEXT_LOG_FIELDS).map(([k, v]) => `"${k}":"${v}"`),
    ].join(",") +
    `}}`;

/** Name of the Fluent Bit parser of the ingress controller's JSON access log (see `ACCESS_LOG_FORMAT`). */
export const NGINX_ACCESS_PARSER = "nginx-access";

/**
 * The Fluent Bit parsers the log agent defines. `nginx-access` decodes the access log's JSON (numbers stay
 * numbers) and takes the record's time from its `time` field (`$msec`: epoch seconds with milliseconds), so a
 * request is stored at the moment NGINX logged it.
 */
export function logParsers(): string {
    return section("PARSER", {
        Name: NGINX_ACCESS_PARSER,
        Format: "json",
        Time_Key: "time",
        Time_Format: "%s.%L",
        Time_Keep: "Off",
    });
}
