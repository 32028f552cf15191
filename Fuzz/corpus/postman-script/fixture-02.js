pm.test('the user', function () {
    pm.response.to.be.ok;
    pm.expect(pm.response.json().email).to.match(/@example\.com$/);
    pm.expect(pm.response.json().role).to.equal('user');
});