/**
 * Log formats the log agent parses, shared by the components that write them (the ingress controller's access
 * log) and the log agent that reads them: the name a pod's `fluentbit.io/parser` annotation gives, and the
 * Fluent Bit parser of that name.
 */
import { section } from "./fluentBitConfig";

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
