/** The vendored chart archives, read through the product's render module (see cli/render/charts.ts). */
export { archiveName, CHARTS_DIR, chartContents, crdsIn, isMap, parseManifest, recordedChecksums, sha256, vendoredChart } from "../../cli/render/charts";
export type { ChartContents, KubeObject } from "../../cli/render/charts";
