declare module "markdown-it-deflist" {
  import type { PluginSimple } from "markdown-it";
  const deflist: PluginSimple;
  export default deflist;
}
