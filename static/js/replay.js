// replay.js: the arrow keys step through a replay by following its links
// (Home and End jump to the start and the end).
document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || e.target.closest("input, textarea, select")) return;
  const keys = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };
  const link = keys[e.key] && document.querySelector(`[data-testid="${keys[e.key]}"]`);
  if (link) {
    e.preventDefault();
    link.click();
  }
});
