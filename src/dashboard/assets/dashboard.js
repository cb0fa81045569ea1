// Progressive help only: every page reads and every form works without this file.

// The copy button stays hidden without script; with it, one click puts the new key on the clipboard.
function setUpCopyButtons() {
  for (const button of document.querySelectorAll('[data-copy-from]')) {
    const field = document.getElementById(button.getAttribute('data-copy-from'));
    const status = document.querySelector('[data-copy-status]');
    if (!field) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      const say = (text) => {
        if (status) status.textContent = text;
      };
      try {
        await navigator.clipboard.writeText(field.value);
        button.textContent = 'Copied';
        say('The key is on your clipboard. Store it somewhere safe now.');
      } catch {
        // No clipboard API (a plain-http address) or permission refused: select it for Ctrl+C.
        field.focus();
        field.select();
        const copied = document.execCommand?.('copy');
        say(copied ? 'The key is on your clipboard.' : 'The key is selected: press Ctrl+C (or ⌘C) to copy it.');
      }
    });
    field.addEventListener('focus', () => field.select());
  }
}

// One sound at a time: starting a player pauses the others.
function setUpSinglePlayback() {
  document.addEventListener(
    'play',
    (event) => {
      for (const player of document.querySelectorAll('audio')) {
        if (player !== event.target) player.pause();
      }
    },
    true,
  );
}

setUpCopyButtons();
setUpSinglePlayback();
