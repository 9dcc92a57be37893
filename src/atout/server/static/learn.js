/* The page /learn/<game>: sets a lesson's table up (POST /api/lessons/<game>, server/lessons.py)
   and opens it.  Reached from the home page's "Learn to play" and each rules page. */

import { t, loadStrings, translatePage, markNamed } from "./lib/dom.js";

const game = decodeURIComponent(location.pathname.split("/").pop());

async function main() {
  await loadStrings();
  await loadStrings("tutorial");
  translatePage();
  const title = t(`lesson_title_${game}`);
  document.getElementById("learn-title").textContent = title;
  document.title = `${title} · atout`;
  const status = document.getElementById("learn-status");
  let r;
  try {
    r = await fetch(`/api/lessons/${encodeURIComponent(game)}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
  } catch {
    status.textContent = t("lesson_failed", { message: t("reconnecting") });
    status.classList.add("error");
    return;
  }
  const data = await r.json();
  if (!r.ok) {
    status.textContent = t("lesson_failed", { message: data.message });
    status.classList.add("error");
    return;
  }
  markNamed(data.table, data.seat); // the learner is "You": the table does not ask a name
  location.replace(data.url);
}

main();
