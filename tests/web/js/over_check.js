// The game-over dialog: whole in the window, its table not clipped. Returns the problems.
() => {
  const problems = [];
  const dlg = document.querySelector(".over-dialog[open]");
  const r = dlg.getBoundingClientRect();
  if (r.left < 0 || r.right > window.innerWidth) problems.push(`the dialog is wider than the window`);
  for (const el of dlg.querySelectorAll("form, .over-body, .over-body table, .over-body th, .over-body td")) {
    if (el.scrollWidth > el.clientWidth + 1) problems.push(`cut: ${el.textContent.trim().slice(0, 40)} (${el.scrollWidth} > ${el.clientWidth})`);
  }
  return problems;
}
