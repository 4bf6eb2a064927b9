// Entry point of templates/games/table.html: reads the table_config JSON and
// starts the client on #table-app. Loaded after /jsi18n/ and SortableJS.
import { startTable } from "./app.js";

const root = document.getElementById("table-app");
const cfgEl = document.getElementById("table-config");
if (root && cfgEl) {
  const config = JSON.parse(cfgEl.textContent);
  window.okeyTable = startTable(root, config);
}
