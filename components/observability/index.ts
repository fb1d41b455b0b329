/**
 * The Observability add-on unit (the OpenTelemetry operator and its collector, which receives the platform's
 * traces): its component (component.ts), its defaults and chart pin (defaults.ts), its configuration keys
 * (keys.ts), its settings (settings.ts) and its mapping onto the Platform's arguments (args.ts); its page is
 * docs/components/observability.md. This index is the library's view of the unit, the component and its place on the Platform (platformUnit.ts): components
 * never read configuration.
 */
export * from "./component";
// Its place on the Platform: the argument types, and (loaded with them) its group of PlatformArgs and member of Platform.
export type { PlatformObservabilityArgs, PlatformTracingArgs } from "./platformUnit";
