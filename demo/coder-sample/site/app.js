// The counter page: one button, one number.
const output = document.getElementById('count');
const button = document.getElementById('count-button');
let clicks = 0;

button.addEventListener('click', () => {
  clicks += 1;
  output.textContent = String(clicks);
});
