// Draws one kind of Emperor decision over the real table of the page and returns a
// function that draws the real table again (tests/web/test_layout.py).
(kind) => {
  const view = window.kozyr.tableView;
  const real = view.frame;
  const me = real.mySeat;
  const others = [0, 1, 2, 3].filter((s) => s !== me);
  const obs = {
    ...real.obs, to_act: me, trick: [], round: 5, titles: ["king", "prince", "soldier", "jester"],
    options: { ...real.obs.options, bargain_from: 2 },
  };
  if (kind === "trump") Object.assign(obs, { phase: "trump", legal_actions: ["trump S", "trump H", "trump D", "trump C", "trump NT"] });
  if (kind === "swap") Object.assign(obs, { phase: "exchange", legal_actions: [...others.map((s) => `swap ${s}`), "pass"] });
  if (kind === "offer") {
    Object.assign(obs, { phase: "bargain", legal_actions: ["offer 1", "offer 2", "offer 3", "yield"],
      swaps: [{ taker: others[0], target: me, result: "pending" }], offers: [] });
  }
  if (kind === "answer") {
    Object.assign(obs, { phase: "bargain", legal_actions: ["accept", "refuse"],
      offers: [{ target: others[1], tricks: 2 }], swaps: [{ taker: me, target: others[1], result: "pending" }] });
  }
  // Frames the server sends meanwhile wait until the real table is drawn again.
  const update = view.update;
  let latest = real;
  view.update = (frame) => { latest = frame; };
  update.call(view, { ...real, obs, seq: null });
  return () => { view.update = update; view.update(latest); };
}
