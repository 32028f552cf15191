pm.test('token', function () {
    pm.expect(pm.response.json().token).to.eql('t0ken');
});