/**
 * The application add-on unit, Bank of Sirius: its component (component.ts) with its arguments (componentArgs.ts) and
 * the builders it composes (one concern each: settingsObjects.ts, workloadSpecs.ts, podSpec.ts, workloads.ts,
 * routing.ts, monitoring.ts, scope.ts), its defaults and the Postgres exporter's chart pin (defaults.ts), its
 * configuration keys (keys.ts), their rules and settings (settings.ts) and its mapping from the configuration and the
 * Platform onto its arguments (args.ts); its page is docs/components/application.md. This index is the library's view
 * of the unit, the component alone: the builders' pure parts are exported from the package's index beside it
 * (components/index.ts, through builders.ts), and components never read configuration.
 */
export * from "./component";
