// The live table's cues: a vibration and a short tone when the turn comes to this player, each
// off until the player turns it on, remembered on this device only.
"use strict";

(() => {
  const KEY = "pilotta.turn-cue.";
  let wasMyTurn = Boolean(document.querySelector("[data-my-turn]"));
  let audio = null;

  const enabled = (cue) => localStorage.getItem(KEY + cue) === "1";

  const beep = () => {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = 660;
    volume.gain.setValueAtTime(0.15, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  };

  const cue = () => {
    if (enabled("vibrate") && navigator.vibrate) {
      navigator.vibrate(120);
    }
    if (enabled("sound")) {
      beep();
    }
  };

  // Each update from the socket may hand the turn to this player: cue only on the change.
  document.addEventListener("htmx:wsAfterMessage", () => {
    const myTurn = Boolean(document.querySelector("[data-my-turn]"));
    if (myTurn && !wasMyTurn) {
      cue();
    }
    wasMyTurn = myTurn;
  });

  const syncBoxes = () => {
    document.querySelectorAll("input[data-turn-cue]").forEach((box) => {
      box.checked = enabled(box.dataset.turnCue);
    });
  };

  document.addEventListener("change", (event) => {
    const box = event.target.closest("input[data-turn-cue]");
    if (box) {
      localStorage.setItem(KEY + box.dataset.turnCue, box.checked ? "1" : "0");
    }
  });

  syncBoxes();
})();
