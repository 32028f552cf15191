pm.test('authenticated', function () {
    pm.response.to.have.status(200);
    pm.expect(pm.response.json().authenticated).to.be.true;
    pm.expect(pm.response.json().user).to.eql('ann');
});